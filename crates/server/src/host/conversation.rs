//! Where a turn is assembled, for every entry point that takes words (the
//! page's `POST /api/turn`, `voicebox turn`, offline live voice): what a
//! turn carries beyond its words — the active root's file names, the file
//! the previous turn named, today's note, the project's notes (`AGENTS.md`) for a model,
//! and whether the resolver in use can work (its key) — is gathered here
//! once, and the turn is the core's [`run_turn`].

use super::acted::Acted;
use super::acts::{ActiveRoot, Acts};
use super::daily;
use super::envelope::Names;
use super::resolve::Words;
use voicebox_core::resolver::{Folder, NOTES_FILE};
use voicebox_core::turn::{Proposal, TurnAnswer, TurnInput, run_turn};
use voicebox_core::worker::Relayed;
use voicebox_core::{Action, Refusal, Reply};

impl Acts {
    /// One turn ([`run_turn`]): the words resolved by `words`, the action run
    /// in the active root.
    pub async fn turn(&self, words: &Words, input: TurnInput, turn: String) -> TurnAnswer<Acted> {
        self.turn_with(words, input, None, turn).await
    }

    /// [`Acts::turn`], where `unusable` (a root the command line named that
    /// cannot be opened) is what every act answers instead.
    pub(crate) async fn turn_with(
        &self,
        words: &Words,
        input: TurnInput,
        unusable: Option<Refusal>,
        turn: String,
    ) -> TurnAnswer<Acted> {
        if let (TurnInput::Words(text), Err(refusal)) = (&input, words.ready()) {
            let refused = Acted::Machine(Box::new(Reply::refusal(refusal)));
            return TurnAnswer::before_resolving(Some(text.clone()), self.counted(refused));
        }
        // Only words need the root's names. A page that cannot say its names
        // cannot act either: its refusal (`no-page`, `page-closed`, ...) is
        // the turn's result, not a second wait.
        let (folder, unreachable) = match &input {
            TurnInput::Words(_) => self.folder_or_refusal().await,
            TurnInput::Action(_) => (Folder::default(), None),
        };
        // A model is shown the project's notes; the built-in resolver reads none.
        let folder = match (words.resolver().llm(), &unreachable) {
            (true, None) => self.noted(folder).await,
            _ => folder,
        };
        let answer = run_turn(
            input,
            async |text: String| words.resolve(&text, &folder).await,
            async |proposal| match (unreachable, unusable) {
                (Some(refusal), _) => self.counted(Acted::unanswered(refusal)),
                (None, Some(refusal)) => self.counted(Reply::refusal(refusal).into()),
                (None, None) => self.act(proposal, turn).await,
            },
        )
        .await;
        self.conversation
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remember(&answer);
        answer
    }

    /// [`Acts::folder`] with the project's notes for a model (its
    /// `AGENTS.md`), read through the executor like any read (so contained
    /// and audited, as turn `instructions`), and only when the root has one.
    pub(crate) async fn folder_with_notes(&self) -> Folder {
        let folder = self.folder().await;
        self.noted(folder).await
    }

    /// `folder` with the notes, when it lists them.
    async fn noted(&self, folder: Folder) -> Folder {
        if !folder.names().iter().any(|name| name == NOTES_FILE) {
            return folder;
        }
        let read = Proposal::Resolved(Action::Read {
            name: NOTES_FILE.into(),
            first: None,
            last: None,
            at: None,
        });
        let notes = self.act(read, "instructions".into()).await;
        folder.with_notes(notes.into_reply().content)
    }

    /// The active root's files and the previous turn's file, for settling
    /// spoken names: the host's folder's, or the names the page that owns
    /// the root reports (none when it does not answer: names are then kept
    /// as said, and the page's executor still answers for each act).
    pub async fn folder(&self) -> Folder {
        self.folder_or_refusal().await.0
    }

    /// [`Acts::folder`], and the channel's refusal when the page that owns
    /// the root did not answer.
    async fn folder_or_refusal(&self) -> (Folder, Option<Refusal>) {
        let (folder, refused) = match self.active() {
            ActiveRoot::Page => match self.channel().relay(&Relayed::Names).await {
                Ok(answer) => (Folder::new(Names::read(answer)), None),
                Err(refusal) => (Folder::default(), Some(refusal)),
            },
            ActiveRoot::Machine => {
                let folder = self.looking(|host| host.folder()).await;
                (folder.unwrap_or_default(), None)
            }
        };
        let conversation = self.conversation.lock().unwrap_or_else(|p| p.into_inner());
        (conversation.folder(folder, daily::today()), refused)
    }
}
