//! Drives one request at a time: polls the executor's future with a no-op
//! waker; a `Pending` means a request is parked in the slot for the worker.

use crate::env::SharedEnv;
use crate::io::Slot;
use crate::session::{self, WebExecutor};
use serde_json::{Value, json};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

type Running = Pin<Box<dyn Future<Output = (Option<WebExecutor>, Value)>>>;

/// What the worker reads back after `begin` or `resume`.
#[derive(Debug, PartialEq)]
pub enum Step {
    /// The executor needs this I/O (JSON header, bytes).
    Io(Value, Vec<u8>),
    /// The request's answer.
    Done(Value),
}

/// The worker's one host: the executor between requests, or the request in flight.
#[derive(Default)]
pub struct Driver {
    executor: Option<WebExecutor>,
    running: Option<Running>,
    slot: Rc<Slot>,
    env: SharedEnv,
}

impl Driver {
    /// Starts a request (JSON). One at a time: the worker queues the rest.
    pub fn begin(&mut self, request: &[u8]) -> Step {
        if self.running.is_some() {
            return Step::Done(busy());
        }
        let request: Value = match serde_json::from_slice(request) {
            Ok(request) => request,
            Err(e) => return Step::Done(malformed(&format!("the request is not JSON: {e}"))),
        };
        self.env.0.update(
            request["now"].as_u64(),
            request["offset"]
                .as_i64()
                .and_then(|o| i32::try_from(o).ok()),
            request["seed"].as_str(),
        );
        let future = session::run(
            request,
            self.executor.take(),
            self.slot.clone(),
            self.env.clone(),
        );
        self.running = Some(Box::pin(future));
        self.poll()
    }

    /// Answers the parked I/O request and continues.
    pub fn resume(&mut self, answer: &[u8], data: Vec<u8>) -> Step {
        if self.running.is_none() {
            return Step::Done(malformed(
                "nothing is waiting for an answer; begin a request first",
            ));
        }
        let answer = serde_json::from_slice(answer).unwrap_or_else(
            |e| json!({"error": {"name": "MalformedAnswer", "message": e.to_string()}}),
        );
        self.slot.put_response((answer, data));
        self.poll()
    }

    fn poll(&mut self) -> Step {
        let running = self.running.as_mut().expect("a request is running");
        let mut context = Context::from_waker(Waker::noop());
        match running.as_mut().poll(&mut context) {
            Poll::Ready((executor, answer)) => {
                self.running = None;
                self.executor = executor;
                Step::Done(answer)
            }
            Poll::Pending => match self.slot.take_request() {
                Some((request, data)) => Step::Io(request, data),
                None => {
                    // Only parked I/O makes the executor wait; anything else is a bug.
                    self.running = None;
                    Step::Done(malformed(
                        "the executor waited on nothing; the request was dropped",
                    ))
                }
            },
        }
    }
}

fn busy() -> Value {
    json!({"ok": false, "refused": "busy", "why": "another request is in flight; send the next one when it answers"})
}

fn malformed(why: &str) -> Value {
    json!({"ok": false, "refused": "malformed-body", "why": why})
}
