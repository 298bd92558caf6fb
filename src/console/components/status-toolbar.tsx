/**
 * Above a list that can be narrowed to one status (a webhook's deliveries, the mail): the status
 * to show, or any, and a button that reads the list again.
 */
export function StatusToolbar<Status extends string>({
  statuses,
  status,
  onStatus,
  onRefresh,
}: {
  readonly statuses: readonly Status[];
  readonly status: Status | '';
  readonly onStatus: (status: Status | '') => void;
  readonly onRefresh: () => void;
}) {
  return (
    <div class="toolbar">
      <label>
        Status
        <select
          value={status}
          onChange={(event) => {
            const chosen = event.currentTarget.value;
            onStatus(statuses.find((one) => one === chosen) ?? '');
          }}
        >
          <option value="">any</option>
          {statuses.map((one) => (
            <option key={one} value={one}>
              {one}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={onRefresh}>
        Refresh
      </button>
    </div>
  );
}
