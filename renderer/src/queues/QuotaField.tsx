/** A quota field in KB: empty means no limit; anything else must be a whole number of KB, said under the field. */
import { useId } from 'react';
import { FieldError } from '../dialogs/DialogShell.js';
import { validKb } from './quota-input.js';

/** The labelled input with its inline message when the text is not a quota. */
export function QuotaField({
  label,
  value,
  onChange,
  disabled = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  const errorId = useId();
  const invalid = !validKb(value);
  return (
    <>
      <label className="form-row">
        <span>{label}</span>
        <input
          value={value}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
          placeholder="no limit"
          inputMode="numeric"
          aria-invalid={invalid}
          aria-describedby={invalid ? errorId : undefined}
        />
      </label>
      {invalid && (
        <FieldError id={errorId}>
          Enter a whole number of KB from 0 to 4,294,967,295, or leave it empty for no limit.
        </FieldError>
      )}
    </>
  );
}
