import { useState } from 'preact/hooks';

/**
 * A secret the API shows once (a new token, a webhook's signing secret): in full, with a copy
 * button, and a warning that it will not be shown again.
 */
export function SecretBox({
  label,
  secret,
  ifLost = 'a lost secret means a new token.',
}: {
  readonly label: string;
  readonly secret: string;
  /** What a person does who loses it, ending the warning. */
  readonly ifLost?: string;
}) {
  const [copied, setCopied] = useState<'yes' | 'refused' | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      setCopied('refused');
    }
  };
  return (
    <div class="secret">
      <p class="warning">
        <strong>Copy it now:</strong> this secret is shown once. Once this box is closed nobody can read it again, not
        even an administrator; {ifLost}
      </p>
      <label>
        {label}
        <textarea
          class="secret-value"
          readOnly
          rows={2}
          value={secret}
          onFocus={(event) => event.currentTarget.select()}
        />
      </label>
      <button type="button" onClick={copy}>
        Copy
      </button>
      <span role="status">
        {copied === 'yes' ? 'Copied.' : copied === 'refused' ? 'The browser refused: select the text and copy it.' : ''}
      </span>
    </div>
  );
}
