//! The egress judges the address it connects to: a public-looking name that
//! resolves to loopback (DNS rebinding) or to the metadata address fetches
//! nothing, every numeric spelling is read as the client reads it, and the
//! loopback opt-in reaches a local fake and nothing else private.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use voicebox_core::Rule;
use voicebox_core::extension::{Reach, address};
use voicebox_core::platform::Egress;
use voicebox_machine::egress::HttpEgress;

/// A fake HTTP server on 127.0.0.1 answering "hello"; it counts connections.
fn fake() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(AtomicUsize::new(0));
    let count = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(16) {
            let mut stream = stream.unwrap();
            count.fetch_add(1, Ordering::SeqCst);
            let mut line = String::new();
            BufReader::new(&stream).read_line(&mut line).unwrap();
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
            );
        }
    });
    (port, seen)
}

/// A resolver under which every name is 127.0.0.1: a rebinding name.
fn to_loopback(_: &str, port: u16) -> std::io::Result<Vec<SocketAddr>> {
    Ok(vec![SocketAddr::from(([127, 0, 0, 1], port))])
}

/// A name with a public answer and a metadata one.
fn partly_metadata(_: &str, port: u16) -> std::io::Result<Vec<SocketAddr>> {
    Ok(vec![
        SocketAddr::from(([93, 184, 216, 34], port)),
        SocketAddr::from(([169, 254, 169, 254], port)),
    ])
}

fn fetch(egress: HttpEgress, url: &str) -> Result<String, Rule> {
    pollster::block_on(egress.fetch(url))
        .map(|f| String::from_utf8_lossy(&f.body).into_owned())
        .map_err(|r| r.rule)
}

#[test]
fn a_name_that_resolves_to_loopback_fetches_nothing() {
    let (port, seen) = fake();
    let url = format!("http://rebind.example:{port}/ok");
    let public = HttpEgress::new(Reach::Public).resolving_with(to_loopback);
    assert_eq!(fetch(public, &url), Err(Rule::PrivateAddress));
    assert_eq!(seen.load(Ordering::SeqCst), 0, "no connection was made");
    let public = HttpEgress::new(Reach::Public).resolving_with(partly_metadata);
    assert_eq!(
        fetch(public, &url),
        Err(Rule::PrivateAddress),
        "one private answer is enough to refuse"
    );
    // The sibling: with the operator's opt-in the same name is fetched, and
    // from the address judged (the name exists nowhere else).
    let opted = HttpEgress::new(Reach::PublicAndLoopback).resolving_with(to_loopback);
    assert_eq!(fetch(opted, &url).as_deref(), Ok("hello"));
    assert_eq!(seen.load(Ordering::SeqCst), 1);
}

#[test]
fn numeric_spellings_are_judged_as_the_client_reads_them() {
    let (port, seen) = fake();
    for host in [
        "127.0.0.1", "2130706433", "0x7f.1", "0177.0.0.1", "127.1", "[::ffff:127.0.0.1]",
    ] {
        let url = format!("http://{host}:{port}/ok");
        assert_eq!(
            fetch(HttpEgress::new(Reach::Public), &url),
            Err(Rule::PrivateAddress),
            "{host}"
        );
        // The core reads each spelling as the client's URL parser does.
        let client = reqwest::Url::parse(&url).unwrap();
        assert_eq!(
            address::parse_host(host).unwrap(),
            address::parse_host(client.host_str().unwrap()).unwrap(),
            "{host}"
        );
    }
    assert_eq!(seen.load(Ordering::SeqCst), 0);
    for url in [
        "http://printer.local/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[fe80::1]/",
    ] {
        assert_eq!(
            fetch(HttpEgress::new(Reach::PublicAndLoopback), url),
            Err(Rule::PrivateAddress),
            "{url}: the opt-in is loopback only"
        );
    }
    let opted = HttpEgress::new(Reach::PublicAndLoopback);
    assert_eq!(
        fetch(opted, &format!("http://0x7f.1:{port}/ok")).as_deref(),
        Ok("hello")
    );
}
