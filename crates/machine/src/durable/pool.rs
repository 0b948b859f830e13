//! Long-lived threads that make syncs side by side.
//!
//! A sync made beside others (at a change's barrier, an anchor's record,
//! a look's line after its answer) must start at once: a thread started
//! for it is scheduled only after a few hundred microseconds on a busy
//! machine, as long as the sync itself. A thread is started when a job
//! finds none idle, and then waits for the next: a job never waits behind
//! another one that blocks (as a log's sync may, on its writer's lock).

use std::collections::VecDeque;
use std::io;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, MutexGuard};

/// At most this many threads; past it, jobs wait for one to be idle.
const MAX_THREADS: usize = 64;

type Job = Box<dyn FnOnce() + Send>;

struct Jobs {
    waiting: VecDeque<Job>,
    threads: usize,
    idle: usize,
}

struct Pool {
    jobs: Mutex<Jobs>,
    ready: Condvar,
}

static POOL: Pool = Pool {
    jobs: Mutex::new(Jobs {
        waiting: VecDeque::new(),
        threads: 0,
        idle: 0,
    }),
    ready: Condvar::new(),
};

impl Pool {
    fn jobs(&self) -> MutexGuard<'_, Jobs> {
        self.jobs.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn work(&'static self) {
        let mut jobs = self.jobs();
        loop {
            let Some(job) = jobs.waiting.pop_front() else {
                jobs.idle += 1;
                jobs = self.ready.wait(jobs).unwrap_or_else(|p| p.into_inner());
                jobs.idle -= 1;
                continue;
            };
            drop(jobs);
            // A job that panics is answered as failed (its sender dropped);
            // the thread goes on.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
            jobs = self.jobs();
        }
    }

    /// Queues `job`, starting a thread if none is idle; the job back where
    /// the pool has no thread at all to run it.
    fn push(&'static self, job: Job) -> Result<(), Job> {
        let mut jobs = self.jobs();
        if jobs.idle <= jobs.waiting.len() && jobs.threads < MAX_THREADS {
            let started = std::thread::Builder::new()
                .name("sync".into())
                .spawn(|| POOL.work());
            if started.is_ok() {
                jobs.threads += 1;
            } else if jobs.threads == 0 {
                return Err(job);
            }
        }
        jobs.waiting.push_back(job);
        drop(jobs);
        self.ready.notify_one();
        Ok(())
    }
}

/// A sync handed to the pool: [`Pending::wait`] returns its result.
pub(crate) struct Pending(mpsc::Receiver<io::Result<()>>);

impl Pending {
    pub(crate) fn wait(self) -> io::Result<()> {
        self.0
            .recv()
            .unwrap_or_else(|_| Err(io::Error::other("a sync thread failed")))
    }
}

/// Runs `sync` on one of the pool's threads (here, where the pool has none).
pub(crate) fn spawn(sync: impl FnOnce() -> io::Result<()> + Send + 'static) -> Pending {
    let (tell, told) = mpsc::sync_channel(1);
    detach(move || {
        let _ = tell.send(sync());
    });
    Pending(told)
}

/// Runs `work` on one of the pool's threads, not waited for (here, where
/// no thread can be had).
pub(crate) fn detach(work: impl FnOnce() + Send + 'static) {
    if let Err(work) = POOL.push(Box::new(work)) {
        work();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_job_is_answered_with_its_own_result() {
        let pending: Vec<_> = (0..12)
            .map(|i| {
                spawn(move || {
                    if i % 2 == 0 {
                        Ok(())
                    } else {
                        Err(io::Error::other(i.to_string()))
                    }
                })
            })
            .collect();
        for (i, pending) in pending.into_iter().enumerate() {
            match pending.wait() {
                Ok(()) => assert_eq!(i % 2, 0),
                Err(e) => assert_eq!(e.to_string(), i.to_string()),
            }
        }
    }

    #[test]
    fn a_job_that_panics_is_answered_as_failed_and_the_pool_goes_on() {
        let failed = spawn(|| panic!("the sync's thread failed"));
        assert_eq!(
            failed.wait().unwrap_err().to_string(),
            "a sync thread failed"
        );
        // Control: the threads still run jobs after it.
        for _ in 0..8 {
            spawn(|| Ok(())).wait().unwrap();
        }
    }

    #[test]
    fn a_job_never_waits_behind_jobs_that_block() {
        // Each job blocks until all of them run at once: a fixed number of
        // threads fewer than the jobs would never end.
        let all = std::sync::Arc::new(std::sync::Barrier::new(17));
        let pending: Vec<_> = (0..16)
            .map(|_| {
                let all = all.clone();
                spawn(move || {
                    all.wait();
                    Ok(())
                })
            })
            .collect();
        all.wait();
        for pending in pending {
            pending.wait().unwrap();
        }
    }
}
