import { Button, type ButtonProps } from "@mantine/core";
import { useNavigate } from "react-router";

/** Back in history, or to the start page when this tab has no history to go back to. */
export function GoBackButton(props: ButtonProps) {
  const navigate = useNavigate();
  const goBack = () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate("/", { replace: true });
  };
  return (
    <Button onClick={goBack} {...props}>
      Go Back
    </Button>
  );
}
