//! The parked-I/O slot: where a storage or tool future leaves its request for
//! the worker, and where the worker's answer is put back.

use crate::ops::Request;
use serde_json::Value;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

/// One I/O exchange: a JSON header and a byte payload each way.
pub type Message = (Value, Vec<u8>);

/// The slot shared by the storage, the tools and the driver.
#[derive(Default)]
pub struct Slot {
    request: RefCell<Option<Message>>,
    response: RefCell<Option<Message>>,
}

impl Slot {
    pub fn new() -> Rc<Slot> {
        Rc::new(Slot::default())
    }

    /// Sends `request` to the worker and waits for its answer.
    pub fn exchange(self: &Rc<Slot>, request: Request, data: Vec<u8>) -> Park {
        // A request is plain data: it always serialises.
        let request = serde_json::to_value(request).unwrap_or_default();
        Park {
            slot: self.clone(),
            request: Some((request, data)),
        }
    }

    /// The request the executor parked, for the driver to hand out.
    pub fn take_request(&self) -> Option<Message> {
        self.request.borrow_mut().take()
    }

    /// The worker's answer to the parked request.
    pub fn put_response(&self, response: Message) {
        *self.response.borrow_mut() = Some(response);
    }
}

/// A future that parks one request and completes with its answer.
pub struct Park {
    slot: Rc<Slot>,
    request: Option<Message>,
}

impl Future for Park {
    type Output = Message;

    fn poll(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Message> {
        if let Some(request) = self.request.take() {
            *self.slot.request.borrow_mut() = Some(request);
            return Poll::Pending;
        }
        match self.slot.response.borrow_mut().take() {
            Some(response) => Poll::Ready(response),
            None => Poll::Pending,
        }
    }
}
