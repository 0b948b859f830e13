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
