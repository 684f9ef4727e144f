// Whether a job may still change: queued or running. Ended jobs (succeeded, failed, cancelled) keep what
// they wrote and their output for good.
import type { Job } from '../../../shared/jobs.ts';

export const jobRunning = (j: Job | undefined): boolean => j !== undefined && (j.status === 'queued' || j.status === 'running');
