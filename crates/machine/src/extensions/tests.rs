use super::*;
use serde_json::json;

fn descriptor(id: &str, description_bytes: usize) -> Descriptor {
    Descriptor::from_json(&json!({
        "id": id, "description": "d".repeat(description_bytes),
        "capabilities": ["read"], "tools": [{"name": "r", "primitive": "read-file"}]
    }))
    .unwrap()
}

fn propose(registry: &Registry, id: &str, bytes: usize) -> Result<(), Rule> {
    registry
        .propose(&descriptor(id, bytes), &[], 0)
        .map_err(|refusal| refusal.rule)
}

#[test]
fn waiting_proposals_are_bounded_in_number_until_some_are_withdrawn() {
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::new(dir.path().into(), Reach::Public);
    for n in 0..MAX_WAITING_PROPOSALS {
        assert_eq!(propose(&registry, &format!("p{n}"), 10), Ok(()), "{n}");
    }
    assert_eq!(
        propose(&registry, "one-more", 10),
        Err(Rule::TooManyProposals)
    );
    assert!(registry.proposal("one-more").is_err(), "nothing was stored");
    // Replacing a waiting proposal takes no new place (the control).
    assert_eq!(propose(&registry, "p0", 20), Ok(()));
    // An admitted one is no longer waiting; a withdrawn one frees its place.
    let p1 = registry.proposal("p1").unwrap().plan_digest;
    registry.admit("p1", &p1, 0).unwrap();
    assert_eq!(propose(&registry, "one-more", 10), Ok(()));
    assert_eq!(
        propose(&registry, "two-more", 10),
        Err(Rule::TooManyProposals)
    );
    registry.withdraw("p2").unwrap();
    assert_eq!(propose(&registry, "two-more", 10), Ok(()));
}

#[test]
fn waiting_proposals_are_bounded_in_size() {
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::new(dir.path().into(), Reach::Public);
    let big = 100 << 10;
    let fit = (MAX_WAITING_BYTES / big as u64) as usize;
    for n in 0..fit {
        assert_eq!(propose(&registry, &format!("big{n}"), big), Ok(()), "{n}");
    }
    assert_eq!(propose(&registry, "last", big), Err(Rule::TooManyProposals));
    assert_eq!(
        propose(&registry, "small", 10),
        Ok(()),
        "a small one still fits"
    );
    registry.withdraw("big0").unwrap();
    assert_eq!(propose(&registry, "last", big), Ok(()));
}
