/** How long after the last key the keys pressed go to the agent as one turn ("1", "2", "3" → 123). */
export const KEYPAD_PAUSE_MS = 1_500;

/** A caller turn made of keys, as the model and the transcript read it. */
export const keypadTurn = (keys: string): string => `[The caller pressed ${keys} on the keypad]`;

/** What the agent's own key presses (press_keys) leave in the transcript and the model's history. */
export const pressedKeysTurn = (keys: string): string => `[Pressed ${keys} on the keypad]`;

/**
 * The keys a caller presses, gathered into one turn: it is given once they pause for
 * KEYPAD_PAUSE_MS, or at once on `#` (the usual "end of entry" key).
 */
export class Keypad {
  private keys = '';
  private startedAt = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly entered: (keys: string, startedAt: string) => void,
    private readonly pauseMs = KEYPAD_PAUSE_MS,
  ) {}

  press(key: string): void {
    if (this.keys === '') this.startedAt = new Date().toISOString();
    this.keys += key;
    clearTimeout(this.timer);
    if (key === '#') this.give();
    else this.timer = setTimeout(() => this.give(), this.pauseMs);
  }

  close(): void {
    clearTimeout(this.timer);
    this.keys = '';
  }

  private give(): void {
    clearTimeout(this.timer);
    const keys = this.keys;
    this.keys = '';
    if (keys !== '') this.entered(keys, this.startedAt);
  }
}
