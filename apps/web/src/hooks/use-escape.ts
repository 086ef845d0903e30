// Closes a dialog on Escape. The shell's own Escape handling (closing help, leaving a filter) still
// runs; a dialog only adds itself to it while it is open.
import { useEffect, useRef } from "react";

export function useEscape(onEscape: () => void): void {
  const onEscapeRef = useRef(onEscape);
  onEscapeRef.current = onEscape;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") onEscapeRef.current();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
