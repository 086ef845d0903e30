// One way to turn whatever a `catch` received into the words of a log line or a refusal: an Error
// gives its message, anything else (a thrown string, a rejected number) its string form.

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
