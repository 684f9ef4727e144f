// A text box of the server form whose value is checked: it shows as invalid once its check is shown (after
// it loses focus, or after the first submit), and names its error and hint for screen readers.
import { splitProps, type JSX } from 'solid-js';
import { describedBy } from '../../ui/ui.tsx';
import type { CheckedField, ServerFormModel, TextField } from './createServerForm.ts';

type InputAttributes = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onInput' | 'onBlur'>;

export function CheckedInput(
  props: {
    model: ServerFormModel;
    id: string;
    field: TextField;
    /** The check whose error it shows, and which losing focus reveals. */
    check: CheckedField;
    /** Whether its Field has a hint (default true). */
    hint?: boolean;
  } & InputAttributes,
) {
  const [own, attributes] = splitProps(props, ['model', 'id', 'field', 'check', 'hint']);
  const error = () => own.model.shown(own.check);
  return (
    <input
      id={own.id}
      {...attributes}
      value={own.model.form[own.field]}
      aria-invalid={error() ? 'true' : undefined}
      aria-describedby={describedBy(own.id, error(), own.hint ?? true)}
      onInput={own.model.input(own.field)}
      onBlur={() => own.model.touch(own.check)}
    />
  );
}
