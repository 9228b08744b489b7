/**
 * The user-facing texts of durable jobs (the header's progress, the jobs page, the dialogs that start jobs), in
 * English, as one object so the conversion to the i18n catalogs of issue 23 is mechanical. Numbers go through
 * Intl (`toLocaleString`), never by hand.
 */
import { durationText } from '@/lib/duration';
import type { JobKind, JobState } from './job-types';

const n = (value: number) => value.toLocaleString();
const plural = (value: number, one: string, many: string) => `${n(value)} ${value === 1 ? one : many}`;

export const jobMessages = {
  jobsLink: 'Jobs',
  headerProgress: (title: string, settled: number, total: number) => `${title}: ${n(settled)} of ${n(total)}`,
  headerPaused: (title: string) => `${title}: paused`,
  headerMore: (count: number) => `and ${plural(count, 'other job', 'other jobs')}`,
  progressLabel: (title: string) => `Progress of ${title}`,
  state: {
    queued: 'Waiting to start',
    running: 'Running',
    paused: 'Paused',
    cancelled: 'Cancelled',
    done: 'Finished',
  } satisfies Record<JobState, string>,
  kind: {
    'contacts-import': 'Contacts import',
    'bulk-tags': 'Bulk tags',
    'undo-tags': 'Undo of tags',
    'products-import': 'Products import',
  } satisfies Record<JobKind, string>,
  stepsDone: (settled: number, total: number) => `${n(settled)} of ${n(total)} done`,
  rate: (perSecond: number) => `${perSecond.toLocaleString(undefined, { maximumFractionDigits: perSecond < 10 ? 1 : 0 })} a second`,
  timeLeft: (seconds: number) => `${durationText(seconds)} left`,
  waiting: (seconds: number) => `Waiting ${n(seconds)} s for the service (its rate limit or the connection); the job goes on by itself.`,
  noRunner: 'Runs while the console is open with this workspace’s key, in this tab or another.',
  pause: 'Pause',
  resume: 'Resume',
  cancel: 'Cancel',
  undo: 'Undo the tag changes',
  undoTitle: (title: string) => `Undo: ${title}`,
  undoneBy: 'Undone: an undo job restores the tags it changed.',
  undoConfirm: (count: number) => `Undo the tag changes on ${plural(count, 'contact', 'contacts')}? This runs as a job of its own.`,
  countCreated: (count: number) => `${n(count)} created`,
  countUpdated: (count: number) => `${n(count)} updated`,
  countTagged: (count: number) => `${n(count)} tags changed`,
  countUnchanged: (count: number) => `${n(count)} unchanged`,
  countRefused: (count: number) => `${n(count)} refused`,
  countFailed: (count: number) => `${n(count)} failed`,
  countNotSent: (count: number) => `${n(count)} not sent`,
  download: (what: string) => `Download ${what} (CSV)`,
  reportCreated: 'created',
  reportUpdated: 'updated',
  reportTagged: 'tags changed',
  reportUnchanged: 'unchanged',
  reportRefused: 'refused',
  reportFailed: 'failed',
  reportNotSent: 'not sent',
  createdCannotBeDeleted: (tag: string | null) =>
    tag
      ? `Contacts the import created cannot be deleted through the interface. They all carry the tag “${tag}”: one filter finds them.`
      : 'Contacts the import created cannot be deleted through the interface; the report lists them.',
  showImported: (tag: string) => `Show the contacts tagged “${tag}”`,
  noJobs: 'No jobs yet. Imports and bulk tag changes run here, in the background, and survive a reload or a closed tab.',
  pageTitle: 'Jobs',
  pageIntro: 'Imports and bulk changes run one at a time per workspace, paced to leave part of the key’s rate limit for you. Closing the tab pauses a job until the console is open again with this workspace’s key.',
  stopped: (reason: string) => reason,
  started: (title: string) => `${title} runs in the background. Follow it in the header or on the Jobs page.`,
  couldNotStart: 'The job could not be stored in this browser (private mode or no space left), so it did not start.',
  leaveWarning: 'A job is running in this tab. Leaving pauses it until the console is open again.',
};
