/**
 * User-facing texts of the contacts screens' new code (issue 21 onwards), in English, kept here so the move to
 * translation catalogs (issue 23) is mechanical. Numbers are formatted with Intl.
 */
const whole = (n: number) => new Intl.NumberFormat().format(n);

export const contactsMessages = {
  /** The export dialog while the service is busy and gave no queue place (another service, or an older one). */
  exportBusy: (seconds: number) => `The service is busy with another export; retrying in ${whole(seconds)} s`,
  /** The export dialog while the export waits in the service's queue at `position` (1 = next). */
  exportQueued: (position: number, seconds: number) =>
    position === 1 ? `Your export is next in line; trying again in ${whole(seconds)} s` : `Your export is number ${whole(position)} in line; trying again in ${whole(seconds)} s`,
};
