import { covers } from '../permissions.js';

export interface PermissionPickerProps {
  readonly legend: string;
  /** What may be given: only these are offered. */
  readonly offered: readonly string[];
  readonly selected: readonly string[];
  readonly onChange: (selected: string[]) => void;
}

const familyOf = (permission: string): string =>
  permission === '*' ? 'Everything' : (permission.split('::')[0] ?? permission);

/**
 * Check boxes of the permissions offered, by family. A wildcard chosen covers the rest of its
 * family, whose boxes are then shown checked and locked, so that what is given is what is seen.
 */
export function PermissionPicker({ legend, offered, selected, onChange }: PermissionPickerProps) {
  const families = new Map<string, string[]>();
  for (const permission of offered)
    families.set(familyOf(permission), [...(families.get(familyOf(permission)) ?? []), permission]);
  const toggle = (permission: string, on: boolean) =>
    onChange(on ? [...selected, permission] : selected.filter((chosen) => chosen !== permission));
  return (
    <fieldset class="permission-picker">
      <legend>{legend}</legend>
      {[...families].map(([family, permissions]) => (
        <fieldset key={family} class="family">
          <legend>{family}</legend>
          {permissions.map((permission) => {
            const coveredBy = selected.find((chosen) => chosen !== permission && covers(chosen, permission));
            return (
              <label key={permission}>
                <input
                  type="checkbox"
                  checked={selected.includes(permission) || coveredBy !== undefined}
                  disabled={coveredBy !== undefined}
                  onChange={(event) => toggle(permission, event.currentTarget.checked)}
                />
                <code>{permission}</code>
              </label>
            );
          })}
        </fieldset>
      ))}
    </fieldset>
  );
}
