//! The client side: a person who answers every question one way (or a
//! client that declares no elicitation at all), and the connection to a
//! `voicebox mcp` child process.

use super::Folder;
use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
    Implementation, ProtocolVersion,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use std::process::Stdio;
use std::sync::{Arc, Mutex};

/// A client, and the person behind it when it can ask one.
#[derive(Clone)]
pub struct Person {
    answer: Option<ElicitationAction>,
    asked: Arc<Mutex<Vec<String>>>,
}

impl Person {
    /// A client that declares no elicitation: it cannot ask anyone.
    pub fn none() -> Person {
        Person {
            answer: None,
            asked: Arc::default(),
        }
    }

    /// A client that asks, and a person who always answers `answer`.
    pub fn answering(answer: ElicitationAction) -> Person {
        Person {
            answer: Some(answer),
            asked: Arc::default(),
        }
    }

    /// The questions put to the person so far.
    pub fn asked(&self) -> Vec<String> {
        self.asked.lock().unwrap().clone()
    }
}

impl ClientHandler for Person {
    fn get_info(&self) -> ClientConfig {
        let capabilities = match self.answer {
            Some(_) => ClientCapabilities::builder().enable_elicitation().build(),
            None => ClientCapabilities::default(),
        };
        ClientConfig::new(capabilities, Implementation::new("voicebox-tests", "1"))
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        if let ElicitRequestParams::FormElicitationParams { message, .. } = request {
            self.asked.lock().unwrap().push(message);
        }
        let answer = self.answer.clone().unwrap_or(ElicitationAction::Decline);
        Ok(ElicitResult::new(answer))
    }
}

/// `voicebox mcp --root <folder> --state-dir <state>`, started as a client
/// app starts it, and the client connected to it.
pub async fn connect(folder: &Folder, person: Person) -> RunningService<RoleClient, Person> {
    let (transport, _) = TokioChildProcess::builder(folder.command())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    person.serve(transport).await.unwrap()
}
