//! Limits on every connection, against a real `voicebox serve` over real
//! sockets: a declared body over the cap is answered before it is sent, a
//! body that never arrives times out by name, an idle connection is closed,
//! a crowd of slow connections gives way to `/api/health`, and past the
//! connection cap the answer is `too-many-connections`. Timeouts are set
//! short through the server's own settings; no pass criterion is a clock.

mod common;

use common::Server;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

fn connect(server: &Server) -> TcpStream {
    let stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream
}

/// Everything the server sends until it closes (or the read timeout).
fn answer(stream: &mut TcpStream) -> String {
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The status and the refusal's rule of an HTTP answer.
fn refused(answer: &str) -> (u16, String) {
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("");
    let rule = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["refused"].as_str().map(String::from))
        .unwrap_or_default();
    (status, rule)
}

/// The head of a turn from the page (its session and its Origin).
fn post_head(server: &Server, length: usize) -> String {
    format!(
        "POST /api/turn HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nOrigin: {}\r\nX-Voicebox-Session: {}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n",
        server.port,
        server.origin(),
        server.session
    )
}

/// `GET /api/health` on a new connection: its status, and how long it took.
fn health(server: &Server) -> (u16, Duration) {
    let started = Instant::now();
    let mut stream = connect(server);
    write!(
        stream,
        "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        server.port
    )
    .unwrap();
    let status = refused(&answer(&mut stream)).0;
    (status, started.elapsed())
}

const LIST: &str = r#"{"transcript":"list files"}"#;

#[test]
fn a_declared_body_over_the_cap_is_answered_before_it_is_sent() {
    let server = Server::start();
    let mut stream = connect(&server);
    let started = Instant::now();
    stream
        .write_all(post_head(&server, 100_000_000).as_bytes())
        .unwrap();
    // Not one byte of the body is sent: the answer can only come first.
    let text = answer(&mut stream);
    eprintln!("declared 100 MB body answered in {:?}", started.elapsed());
    assert_eq!(refused(&text), (413, "body-too-large".into()), "{text}");
    // The sibling: the same request with the body it declares.
    let mut stream = connect(&server);
    write!(stream, "{}{LIST}", post_head(&server, LIST.len())).unwrap();
    let text = answer(&mut stream);
    assert_eq!(refused(&text).0, 200, "{text}");
}

#[test]
fn a_body_that_does_not_arrive_times_out_by_name() {
    let server = Server::start_with_env(&[("VOICEBOX_BODY_TIMEOUT_MS", "500")]);
    let mut stream = connect(&server);
    write!(stream, "{}{}", post_head(&server, LIST.len()), &LIST[..5]).unwrap();
    let text = answer(&mut stream);
    assert_eq!(refused(&text), (408, "body-timeout".into()), "{text}");
    assert!(!server.root.join("x").exists());
    let mut stream = connect(&server);
    write!(stream, "{}{LIST}", post_head(&server, LIST.len())).unwrap();
    assert_eq!(refused(&answer(&mut stream)).0, 200);
}

#[test]
fn an_idle_or_slow_connection_is_closed_and_a_keep_alive_one_is_answered() {
    let server = Server::start_with_env(&[("VOICEBOX_HEADER_TIMEOUT_MS", "500")]);
    // Idle from the start: closed with nothing said.
    let mut idle = connect(&server);
    assert_eq!(answer(&mut idle), "");
    // A head trickled past the timeout: closed before it completes.
    let mut slow = connect(&server);
    slow.write_all(b"GET /api/health HTTP/1.1\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let _ = slow.write_all(b"Host: 127.0.0.1\r\n");
    assert_eq!(refused(&answer(&mut slow)).0, 0, "no answer to a late head");
    // The sibling: two requests on one keep-alive connection, each in time.
    let mut alive = connect(&server);
    let request = format!(
        "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        server.port
    );
    let mut buffer = [0u8; 4096];
    for _ in 0..2 {
        alive.write_all(request.as_bytes()).unwrap();
        let n = alive.read(&mut buffer).unwrap();
        assert!(buffer[..n].starts_with(b"HTTP/1.1 200"));
        std::thread::sleep(Duration::from_millis(200));
    }
    // ...and closed once it idles past the timeout after its last answer.
    assert_eq!(alive.read(&mut buffer).unwrap(), 0);
}

/// How many descriptors the server process holds.
fn descriptors(server: &Server) -> usize {
    std::fs::read_dir(format!("/proc/{}/fd", server.pid()))
        .unwrap()
        .count()
}

#[test]
fn a_crowd_of_slow_connections_gives_way_to_health() {
    let server = Server::start();
    let (status, quiet) = health(&server);
    assert_eq!(status, 200);
    let baseline = descriptors(&server);
    // 2,000 connections, each a few bytes into a request head, held open.
    let crowd: Vec<TcpStream> = (0..2000)
        .map(|_| {
            let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
            let _ = stream.write_all(b"GET /api/health HTTP/1.1\r\nHo");
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let mut latencies = Vec::new();
    for _ in 0..10 {
        let (status, took) = health(&server);
        assert_eq!(status, 200, "health answers while the crowd waits");
        latencies.push(took);
    }
    let held = descriptors(&server) - baseline;
    eprintln!(
        "health alone {quiet:?}; under 2,000 slow connections {latencies:?}; server descriptors beyond idle: {held}"
    );
    assert!(
        held <= 256 + 16,
        "the server holds at most its cap of connections, not the crowd: {held}"
    );
    drop(crowd);
}

#[test]
fn past_the_cap_of_busy_connections_the_answer_is_named() {
    let server = Server::start_with_env(&[
        ("VOICEBOX_MAX_CONNECTIONS", "2"),
        ("VOICEBOX_BODY_TIMEOUT_MS", "20000"),
    ]);
    // Two connections busy with requests whose bodies are on their way.
    let mut busy: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut stream = connect(&server);
            write!(stream, "{}{}", post_head(&server, LIST.len()), &LIST[..3]).unwrap();
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut third = connect(&server);
    write!(
        third,
        "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        server.port
    )
    .unwrap();
    let text = answer(&mut third);
    assert_eq!(
        refused(&text),
        (503, "too-many-connections".into()),
        "{text}"
    );
    // One finishes its body and is answered; its slot is free again.
    let mut first = busy.remove(0);
    first.write_all(&LIST.as_bytes()[3..]).unwrap();
    assert_eq!(refused(&answer(&mut first)).0, 200);
    assert_eq!(health(&server).0, 200);
}
