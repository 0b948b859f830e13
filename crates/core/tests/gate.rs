//! The extension gate knows private addresses: every class, in every
//! spelling the URL parser accepts, is refused at proposal time (`judge`) and
//! on every hop (`check_url`), each beside a public sibling that passes; and
//! the bounds have ceilings.

use serde_json::{Value, json};
use voicebox_core::Rule;
use voicebox_core::extension::address::{Host, parse_host};
use voicebox_core::extension::{
    Descriptor, MAX_BYTES_CEILING, MAX_REQUESTS_CEILING, Reach, check_url, judge,
};

fn fetcher(hosts: Value, bounds: Value) -> Descriptor {
    let mut bounds = bounds;
    bounds["hosts"] = hosts;
    Descriptor::from_json(&json!({
        "id": "f", "description": "d", "capabilities": ["network"],
        "bounds": bounds,
        "tools": [{"name": "get", "primitive": "http-get"}]
    }))
    .unwrap()
}

fn rules(descriptor: &Descriptor, reach: Reach) -> Vec<Rule> {
    judge(descriptor, reach)
        .into_iter()
        .map(|r| r.rule)
        .collect()
}

/// One host of each non-public class, in the spellings a URL parser reads as it.
const PRIVATE: &[&str] = &[
    // loopback, in every numeric spelling
    "127.0.0.1",
    "127.1",
    "2130706433",
    "0x7f.1",
    "0x7F000001",
    "0177.0.0.1",
    "127.0.0.1.",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[0:0:0:0:0:ffff:7f00:1]",
    "localhost",
    "LOCALHOST.",
    "api.localhost",
    // link-local: the cloud metadata endpoint, and IPv6 link-local
    "169.254.169.254",
    "0xa9fea9fe",
    "[::ffff:169.254.169.254]",
    "[fe80::1]",
    // RFC 1918, CGNAT, unique-local
    "10.0.0.1",
    "012.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "100.64.0.1",
    "[fc00::1]",
    "[fd12:3456::1]",
    // this network, unspecified, multicast, broadcast, documentation
    "0.0.0.0",
    "0",
    "[::]",
    "224.0.0.1",
    "[ff02::1]",
    "255.255.255.255",
    "192.0.2.1",
    "[2001:db8::1]",
    // IPv6 forms that carry a private IPv4: NAT64 (well-known and local-use
    // prefixes), 6to4, IPv4-translated, Teredo
    "[64:ff9b::7f00:1]",
    "[64:ff9b:1::7f00:1]",
    "[64:ff9b:1:a9fe:a9:fe00::]",
    "[2002:7f00:1::]",
    "[2002:a00:1::1]",
    "[::ffff:0:7f00:1]",
    "[2001:0:7f00:1::]",
    // names of the local network
    "printer.local",
    "router.home.arpa",
    "intranet",
];

/// Public siblings: near each class, but outside it.
const PUBLIC: &[&str] = &[
    "api.example.com",
    "API.Example.COM.",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "169.255.0.1",
    "[2606:4700::1111]",
    "[::ffff:93.184.216.34]",
    "[64:ff9b::5db8:d822]",
    "[64:ff9b:1:808:8:808:808:808]",
    "[2002:5db8:d822::1]",
    "localhost.example.com",
];

#[test]
fn each_private_class_is_refused_at_proposal_time_in_every_spelling() {
    for host in PRIVATE {
        let d = fetcher(json!([host]), json!({"maxRequests": 3}));
        assert_eq!(rules(&d, Reach::Public), [Rule::PrivateAddress], "{host}");
    }
    for host in PUBLIC {
        let d = fetcher(json!([host]), json!({"maxRequests": 3}));
        assert_eq!(rules(&d, Reach::Public), [], "{host}");
    }
}

#[test]
fn numeric_spellings_mean_the_address_they_spell() {
    for (spelled, meant) in [
        ("2130706433", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("0x7f.0.0.0x1.", "127.0.0.1"),
        ("0xa9.0xfe.0xa9.0xfe", "169.254.169.254"),
        ("[::FFFF:7F00:1]", "[::ffff:127.0.0.1]"),
    ] {
        assert_eq!(parse_host(spelled).unwrap().to_string(), meant, "{spelled}");
    }
    // Names stay names, lowercased, without the trailing dot.
    assert_eq!(
        parse_host("Api.Example.").unwrap(),
        Host::Name("api.example".into())
    );
    // What is no host is refused, never guessed at.
    for bad in [
        "1.2.3.4.5", "256.0.0.1", "4294967296", "08.0.0.1", "example.123", "a..b",
        "%31%32%37.0.0.1", "１２７.０.０.１", "[::1", "[127.0.0.1]", "",
    ] {
        assert_eq!(
            parse_host(bad).unwrap_err().rule,
            Rule::HostNotAllowed,
            "{bad:?}"
        );
    }
}

#[test]
fn every_hop_is_judged_by_the_address_it_names() {
    let listed = fetcher(json!(["api.example.com"]), json!({"maxRequests": 3}));
    let bounds = &listed.bounds;
    assert_eq!(
        check_url("https://api.example.com/x", bounds, Reach::Public).unwrap(),
        "api.example.com"
    );
    for hop in [
        "http://2130706433/",
        "http://0x7f.1:8080/",
        "http://[::ffff:127.0.0.1]/",
        "http://[64:ff9b:1::7f00:1]/",
        "http://[2002:7f00:1::]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://localhost./",
    ] {
        assert_eq!(
            check_url(hop, bounds, Reach::Public).unwrap_err().rule,
            Rule::PrivateAddress,
            "{hop}"
        );
    }
}

#[test]
fn the_loopback_opt_in_admits_loopback_and_nothing_else_private() {
    let loopback = fetcher(json!(["127.0.0.1"]), json!({"maxRequests": 3}));
    assert_eq!(rules(&loopback, Reach::Public), [Rule::PrivateAddress]);
    assert_eq!(rules(&loopback, Reach::PublicAndLoopback), []);
    assert_eq!(
        check_url(
            "http://0x7f.1:9/ok",
            &loopback.bounds,
            Reach::PublicAndLoopback
        )
        .unwrap(),
        "127.0.0.1",
        "another spelling of a listed address is that address"
    );
    for host in [
        "169.254.169.254", "10.0.0.1", "[fe80::1]", "0.0.0.0", "printer.local",
    ] {
        let d = fetcher(json!([host]), json!({"maxRequests": 3}));
        assert_eq!(
            rules(&d, Reach::PublicAndLoopback),
            [Rule::PrivateAddress],
            "{host}"
        );
    }
}

#[test]
fn bounds_have_ceilings_and_a_write_declares_its_size() {
    let at = fetcher(
        json!(["api.example.com"]),
        json!({"maxRequests": MAX_REQUESTS_CEILING}),
    );
    assert_eq!(rules(&at, Reach::Public), []);
    let over = fetcher(json!(["api.example.com"]), json!({"maxRequests": u32::MAX}));
    assert_eq!(rules(&over, Reach::Public), [Rule::BoundTooLarge]);

    let writer = |bounds: Value| {
        Descriptor::from_json(&json!({
            "id": "w", "description": "d", "capabilities": ["write"], "bounds": bounds,
            "tools": [{"name": "save", "primitive": "write-file"}]
        }))
        .unwrap()
    };
    assert_eq!(
        rules(
            &writer(json!({"maxBytes": MAX_BYTES_CEILING})),
            Reach::Public
        ),
        []
    );
    assert_eq!(
        rules(
            &writer(json!({"maxBytes": MAX_BYTES_CEILING + 1})),
            Reach::Public
        ),
        [Rule::BoundTooLarge]
    );
    let unbounded = judge(&writer(json!({})), Reach::Public);
    assert_eq!(
        unbounded.iter().map(|r| r.rule).collect::<Vec<_>>(),
        [Rule::UnderDeclared]
    );
    assert!(
        unbounded[0].why.contains("maxBytes"),
        "{}",
        unbounded[0].why
    );
}
