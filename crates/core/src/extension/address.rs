//! Which hosts `http-get` may reach: public names and public addresses only.
//!
//! A host is read the way a browser's URL parser (WHATWG) reads it, so every
//! spelling of an address is judged as the address it means: `2130706433`,
//! `0x7f.1`, `0177.0.0.1` and `127.1` are all 127.0.0.1, `[::ffff:7f00:1]` is
//! too. The gate judges the names a descriptor lists; the machine's egress
//! judges again, at fetch time, every address a name resolves to (so a name
//! that resolves to loopback — DNS rebinding — reaches nothing).

use crate::rule::{Refusal, Rule};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Which addresses the network of this host may reach.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reach {
    /// Public names and addresses only: the default everywhere.
    #[default]
    Public,
    /// Loopback as well, by address or by name: the operator's opt-in for a
    /// local fake server in tests (`VOICEBOX_ALLOW_LOOPBACK_EGRESS=1`). Every
    /// other private class stays refused.
    PublicAndLoopback,
}

/// A host as the URL parser reads it: a name (lowercase, no trailing dot) or
/// an address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Host {
    Name(String),
    Address(IpAddr),
}

impl core::fmt::Display for Host {
    /// The canonical spelling: what a host list entry and a URL's host are
    /// compared by.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Host::Name(name) => f.write_str(name),
            Host::Address(IpAddr::V4(v4)) => write!(f, "{v4}"),
            Host::Address(IpAddr::V6(v6)) => write!(f, "[{v6}]"),
        }
    }
}

/// Reads `host` (a URL's host, or a descriptor's `bounds.hosts` entry):
/// `[v6]`, an IPv4 number in any spelling the URL parser accepts, or a name
/// of `a-z 0-9 - _` labels. Anything else (percent signs, non-ASCII, empty
/// labels, a number that is no IPv4 address) is refused, never guessed.
pub fn parse_host(host: &str) -> Result<Host, Refusal> {
    let malformed = |what: &str| {
        Refusal::new(
            Rule::HostNotAllowed,
            format!(
                "{host:?} is not a host name or address ({what}); spell it as a plain DNS name, e.g. api.example.com"
            ),
        )
    };
    if let Some(inner) = host.strip_prefix('[') {
        let inner = inner
            .strip_suffix(']')
            .ok_or_else(|| malformed("an unclosed ["))?;
        return inner
            .parse::<Ipv6Addr>()
            .map(|v6| Host::Address(IpAddr::V6(v6)))
            .map_err(|_| malformed("not an IPv6 address"));
    }
    let lower = host.to_ascii_lowercase();
    if !lower
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.'))
    {
        return Err(malformed("a character no DNS name has"));
    }
    let name = lower.strip_suffix('.').unwrap_or(&lower);
    if name.is_empty() || name.split('.').any(str::is_empty) {
        return Err(malformed("an empty label"));
    }
    if ends_in_a_number(name) {
        return ipv4(name)
            .map(|v4| Host::Address(IpAddr::V4(v4)))
            .ok_or_else(|| malformed("a number that is no IPv4 address"));
    }
    Ok(Host::Name(name.to_string()))
}

/// WHATWG "ends in a number": a host whose last label is digits or `0x` hex
/// is an IPv4 address or nothing.
fn ends_in_a_number(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or("");
    !last.is_empty() && (last.bytes().all(|b| b.is_ascii_digit()) || ipv4_number(last).is_some())
}

/// WHATWG IPv4 parser: 1–4 dot-separated numbers (decimal, `0x` hex or
/// `0`-led octal), the last filling the remaining bytes.
fn ipv4(name: &str) -> Option<Ipv4Addr> {
    let mut numbers = [0u64; 4];
    let mut count = 0;
    for part in name.split('.') {
        *numbers.get_mut(count)? = ipv4_number(part)?;
        count += 1;
    }
    let (last, leading) = numbers[..count].split_last()?;
    if leading.iter().any(|&n| n > 255) || *last >= 1u64 << (8 * (5 - count)) {
        return None;
    }
    let high = leading
        .iter()
        .enumerate()
        .fold(0u64, |sum, (i, &n)| sum | n << (8 * (3 - i)));
    u32::try_from(high | last).ok().map(Ipv4Addr::from)
}

/// One IPv4 number: `0x` hex, `0`-led octal, or decimal. A value past
/// `u64` saturates (it is refused as too large by the caller); a digit
/// outside its radix (or a sign) is no number.
fn ipv4_number(part: &str) -> Option<u64> {
    let (digits, radix) = if let Some(hex) = part.strip_prefix("0x") {
        (hex, 16)
    } else if part.len() > 1 && part.starts_with('0') {
        (&part[1..], 8)
    } else {
        (part, 10)
    };
    if digits.is_empty() && radix != 16 {
        return None;
    }
    digits.chars().try_fold(0u64, |value, c| {
        let digit = c.to_digit(radix)?;
        Some(
            value
                .saturating_mul(u64::from(radix))
                .saturating_add(u64::from(digit)),
        )
    })
}

fn localhost(name: &str) -> bool {
    name == "localhost" || name.ends_with(".localhost")
}

/// Names that can only mean this machine or its local network, by their
/// reserved suffix (RFC 6761 `localhost`, RFC 6762 `local`, RFC 8375
/// `home.arpa`, ICANN's private-use `internal`), or a single label, which a
/// resolver completes with the local search domains.
fn local_name(name: &str) -> Option<&'static str> {
    let under = |suffix: &str| name == suffix || name.ends_with(&format!(".{suffix}"));
    if localhost(name) {
        Some("loopback (localhost)")
    } else if under("local") {
        Some("the local network (mDNS .local)")
    } else if under("home.arpa") || under("internal") {
        Some("a private network's own names")
    } else if !name.contains('.') {
        Some("a single-label name, resolved on the local network")
    } else {
        None
    }
}

/// IPv4 blocks that are not the public internet: each with what it is.
const V4_BLOCKS: &[([u8; 4], u8, &str)] = &[
    ([0, 0, 0, 0], 8, "\"this network\" (0.0.0.0/8)"),
    ([10, 0, 0, 0], 8, "private (10/8)"),
    ([100, 64, 0, 0], 10, "carrier-grade NAT (100.64/10)"),
    ([127, 0, 0, 0], 8, "loopback (127/8)"),
    (
        [169, 254, 0, 0],
        16,
        "link-local, where cloud metadata lives (169.254/16)",
    ),
    ([172, 16, 0, 0], 12, "private (172.16/12)"),
    ([192, 0, 0, 0], 24, "IETF protocol assignments (192.0.0/24)"),
    ([192, 0, 2, 0], 24, "documentation (192.0.2/24)"),
    ([192, 168, 0, 0], 16, "private (192.168/16)"),
    ([198, 18, 0, 0], 15, "benchmarking (198.18/15)"),
    ([198, 51, 100, 0], 24, "documentation (198.51.100/24)"),
    ([203, 0, 113, 0], 24, "documentation (203.0.113/24)"),
    ([224, 0, 0, 0], 4, "multicast (224/4)"),
    ([240, 0, 0, 0], 4, "reserved and broadcast (240/4)"),
];

/// IPv6 blocks that are not the public internet (embedded IPv4 forms are
/// judged as their IPv4 address first).
const V6_BLOCKS: &[([u16; 8], u8, &str)] = &[
    ([0; 8], 128, "unspecified (::)"),
    ([0, 0, 0, 0, 0, 0, 0, 1], 128, "loopback (::1)"),
    ([0; 8], 96, "IPv4-compatible (::/96)"),
    ([0x100, 0, 0, 0, 0, 0, 0, 0], 64, "discard-only (100::/64)"),
    (
        [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0],
        32,
        "documentation (2001:db8::/32)",
    ),
    ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, "unique-local (fc00::/7)"),
    ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, "link-local (fe80::/10)"),
    ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, "site-local (fec0::/10)"),
    ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, "multicast (ff00::/8)"),
];

/// The IPv4 addresses an IPv6 one carries and means, in every layout its
/// prefix allows: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated
/// (`::ffff:0:a.b.c.d`), NAT64 at the well-known prefix (`64:ff9b::/96`) and
/// at the local-use one (`64:ff9b:1::/48`, RFC 8215: a network may use any
/// RFC 6052 prefix length from /48 to /96 under it, and the host cannot know
/// which, so every one is read), 6to4 (`2002:a.b.c.d::/48`) and Teredo (the
/// server, and the client's address inverted). Empty: it carries none.
fn embedded_v4(v6: Ipv6Addr) -> Vec<Ipv4Addr> {
    let b = v6.octets();
    let v4 = |at: [usize; 4]| Ipv4Addr::new(b[at[0]], b[at[1]], b[at[2]], b[at[3]]);
    let s = v6.segments();
    match s {
        [0, 0, 0, 0, 0, 0xffff, ..]
        | [0, 0, 0, 0, 0xffff, 0, ..]
        | [0x64, 0xff9b, 0, 0, 0, 0, ..] => {
            alloc::vec![v4([12, 13, 14, 15])]
        }
        [0x64, 0xff9b, 1, ..] => alloc::vec![
            // RFC 6052 layouts: /48, /56, /64 (bits 64..71 are skipped), /96.
            v4([6, 7, 9, 10]),
            v4([7, 9, 10, 11]),
            v4([9, 10, 11, 12]),
            v4([12, 13, 14, 15]),
        ],
        [0x2002, ..] => alloc::vec![v4([2, 3, 4, 5])],
        [0x2001, 0, ..] => {
            let client = !u32::from(v4([12, 13, 14, 15]));
            alloc::vec![v4([4, 5, 6, 7]), Ipv4Addr::from(client)]
        }
        _ => Vec::new(),
    }
}

/// What `address` is when it is not a public one.
pub fn special(address: IpAddr) -> Option<&'static str> {
    match address {
        IpAddr::V4(v4) => {
            let bits = u32::from(v4);
            V4_BLOCKS.iter().find_map(|&(net, len, what)| {
                let mask = u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0);
                (bits & mask == u32::from_be_bytes(net)).then_some(what)
            })
        }
        IpAddr::V6(v6) => {
            let carried = embedded_v4(v6);
            if !carried.is_empty() {
                // Public only when every address it may mean is.
                return carried.into_iter().find_map(|v4| special(IpAddr::V4(v4)));
            }
            let bits = u128::from(v6);
            V6_BLOCKS.iter().find_map(|&(net, len, what)| {
                let mask = u128::MAX.checked_shl(128 - u32::from(len)).unwrap_or(0);
                (bits & mask == u128::from(Ipv6Addr::from(net))).then_some(what)
            })
        }
    }
}

fn loopback(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            let carried = embedded_v4(v6);
            v6.is_loopback() || (!carried.is_empty() && carried.iter().all(Ipv4Addr::is_loopback))
        }
    }
}

fn refuse(shown: &str, what: &str) -> Refusal {
    Refusal::new(
        Rule::PrivateAddress,
        format!(
            "{shown} is {what}, not the public internet: `http-get` reaches only public names and addresses, so nothing was fetched; list a public host"
        ),
    )
}

/// Refuses an address that is not public (loopback too, unless `reach`
/// allows it). The machine's egress calls this on every resolved address.
pub fn judge_address(address: IpAddr, reach: Reach) -> Result<(), Refusal> {
    match special(address) {
        Some(_) if reach == Reach::PublicAndLoopback && loopback(address) => Ok(()),
        Some(what) => Err(refuse(&Host::Address(address).to_string(), what)),
        None => Ok(()),
    }
}

/// Refuses a host that is not public by its spelling: a private address in
/// any spelling, or a name reserved for this machine or its network.
pub fn judge_host(host: &Host, reach: Reach) -> Result<(), Refusal> {
    match host {
        Host::Address(address) => judge_address(*address, reach),
        Host::Name(name) => match local_name(name) {
            Some(_) if reach == Reach::PublicAndLoopback && localhost(name) => Ok(()),
            Some(what) => Err(refuse(name, what)),
            None => Ok(()),
        },
    }
}
