// The whole of Mantine's styles, in @layer mantine like the first screen's (first-screen-styles.ts).
import "@mantine/core/styles.layer.css";
