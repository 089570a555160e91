import { Modal } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import type { ReactNode } from "react";
import { useReturnFocus } from "../lib/use-return-focus";

interface Props {
  title: string;
  onClose: () => void;
  size?: string;
  children: ReactNode;
}

/**
 * The app's dialog frame: a bold title, a close button, centred, full screen on phones. It
 * mounts open and unmounts to close, giving focus back to what opened it.
 */
export function ModalShell({ title, onClose, size = "md", children }: Props) {
  const phone = useMediaQuery("(max-width: 36em)");
  useReturnFocus();
  return (
    <Modal.Root opened onClose={onClose} size={size} fullScreen={phone} centered>
      <Modal.Overlay />
      <Modal.Content>
        {/* A div, not Mantine's default <header>: a second banner landmark confuses screen readers. */}
        <Modal.Header component="div">
          <Modal.Title fw={700}>{title}</Modal.Title>
          <Modal.CloseButton aria-label="Close" />
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
