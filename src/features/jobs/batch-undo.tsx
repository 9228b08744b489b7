/**
 * A job's Undo in one request where the service keeps an activity log (issue 33 point 7; `POST /activity/revert` with
 * `{ batchId: <jobId> }`, docs/decisions.md section 11): every write of a console job carries `Activity-Batch: <jobId>`
 * (src/lib/jobs/step-runner.ts), so the service undoes the whole job at once (contacts it created deleted, tags it changed
 * put back, products it created deleted) and names what it left because someone changed it since, downloadable as
 * CSV. A job run before the log has no batch: the service answers 404 and the entry says so. Links to the job's
 * batch on the Activity page. Texts: the `activity` catalog (`useArea`: render under a `Suspense` boundary).
 */
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { isApiError } from '@/api/api-error';
import { RevertOutcome, useRevert } from '@/components/record-history';
import { ErrorMessage } from '@/components/error-message';
import { useArea, useT } from '@/i18n/react';
import { conflictsCsv } from '@/lib/activity';
import type { JobRecord } from '@/lib/jobs/job-types';
import { saveFile } from '@/lib/save-file';
import { InlineConfirm } from './inline-confirm';

export function BatchUndo({ job, workspaceId }: { job: JobRecord; workspaceId: string }) {
  useArea('activity');
  const t = useT();
  const revert = useRevert();
  const [confirming, setConfirming] = useState(false);
  const result = revert.data;
  const notRecorded = revert.isError && isApiError(revert.error) && revert.error.status === 404;
  return (
    <Stack gap="xs">
      <Group gap="xs">
        {!revert.data && !notRecorded ? (
          <Button size="xs" variant="default" onClick={() => setConfirming(true)} disabled={confirming}>
            {t('activity.undoBatch')}
          </Button>
        ) : null}
        <Anchor component={Link} size="sm" underline="always" to={`/w/${workspaceId}/activity?batch=${encodeURIComponent(job.id)}`}>
          {t('activity.batchOfJob')}
        </Anchor>
      </Group>
      {confirming && !revert.data ? (
        <InlineConfirm
          label={t('activity.undoBatch')}
          message={t('activity.undoBatchConfirm')}
          confirmLabel={t('activity.undoBatchRun')}
          busy={revert.isPending}
          onConfirm={() => revert.mutate({ batchId: job.id }, { onSettled: () => setConfirming(false) })}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
      {result ? (
        <>
          <RevertOutcome result={result} />
          {result.conflicts.length ? (
            <Anchor
              component="button"
              type="button"
              size="sm"
              w="fit-content"
              onClick={() => saveFile(new Blob([conflictsCsv(result.conflicts)], { type: 'text/csv;charset=utf-8' }), `undo-${job.id}-not-reverted.csv`)}
            >
              {t('activity.downloadConflicts')}
            </Anchor>
          ) : null}
        </>
      ) : null}
      {notRecorded ? (
        <Text size="sm" c="dimmed">
          {t('activity.undoNotRecorded')}
        </Text>
      ) : revert.isError ? (
        <Alert color="red" p="xs" role="alert" title={t('activity.revertFailed')}>
          <ErrorMessage error={revert.error} />
        </Alert>
      ) : null}
    </Stack>
  );
}
