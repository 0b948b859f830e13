use super::*;

#[test]
fn what_is_heard_becomes_one_call_through_the_resolver() {
    let mut local = Local::default();
    let events = local.read(
        &json!({"heard": "read hello dot txt", "action": {"verb": "read", "name": "hello.txt"}}),
    );
    assert_eq!(
        events[0],
        Event::Transcript {
            who: Who::Person,
            text: "read hello dot txt".into()
        }
    );
    let Event::Calls(calls) = &events[1] else {
        panic!("{events:?}");
    };
    assert_eq!(calls[0].name, "read");
    assert_eq!(calls[0].args, json!({"name": "hello.txt"}));
    let unresolved = local.read(&json!({"heard": "please", "note": "say more"}));
    assert_eq!(unresolved.last(), Some(&Event::Reply("say more".into())));
    assert_eq!(
        local.read(&json!({"heard": "delete the the", "unsure": true})),
        vec![Event::Reply(NOT_CAUGHT.into())],
        "an unsure hearing is not acted on, nor shown as what was said"
    );
    assert_eq!(
        local.read(&json!({"heard": ""})),
        vec![Event::Reply(NOTHING_HEARD.into())]
    );
    assert_eq!(local.read(&json!({"ready": true})), vec![Event::Ready]);
}

#[test]
fn an_answer_heard_becomes_a_spoken_answer_to_its_question_and_nothing_else() {
    let mut local = Local::default();
    let action = json!({"verb": "append", "name": "groceries.md", "content": "milk"});
    let events =
        local.read(&json!({"answer": {"id": "q1", "action": action}, "heard": "groceries"}));
    let Event::Calls(calls) = &events[1] else {
        panic!("{events:?}");
    };
    assert_eq!(
        calls[0].answer,
        Some(SpokenAnswer {
            question: "q1".into(),
            heard: "groceries".into()
        })
    );
    assert_eq!(
        (calls[0].heard.as_ref(), calls[0].name.as_str()),
        (None, "append")
    );
    // Without a question it is heard as words, never as an answer.
    let words = local.read(&json!({"heard": "groceries", "note": "say more"}));
    assert!(
        words.iter().all(|e| !matches!(e, Event::Calls(_))),
        "{words:?}"
    );
}

#[test]
fn silence_before_speech_is_not_kept_beyond_the_pre_roll() {
    // A second and a half, each sample its own index.
    let mut utterance: Vec<i16> = (0..3 * INPUT_RATE / 2).map(|i| i as i16).collect();
    keep_pre_roll(&mut utterance);
    assert_eq!(utterance.len(), PRE_ROLL_SAMPLES);
    assert_eq!(
        utterance.first(),
        Some(&(INPUT_RATE as i16 / 2)),
        "the last second is kept"
    );
    // Less than the pre-roll is kept whole.
    let mut short = vec![7i16; 100];
    keep_pre_roll(&mut short);
    assert_eq!(short, vec![7i16; 100]);
}
