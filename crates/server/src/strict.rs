//! Strict JSON with named misfits. A request body and a `/channel` frame
//! must fit their type exactly, and the refusal names how they did not:
//! an unknown field, an unknown variant (a frame `type`), or anything else.
//!
//! serde reports those cases through distinct calls on its error type
//! (`unknown_field`, `unknown_variant`, `custom`), but `serde_json::Error`
//! keeps only the words. So the text is first parsed as JSON (a syntax error
//! is malformed), and the value is then deserialized through [`Strict`], a
//! deserializer over `serde_json::Value` whose error type is [`Misfit`]: the
//! kind is kept as data, never recovered from the message.
//!
//! The text is read with every object's keys checked ([`Unique`]):
//! serde_json keeps the last of two equal keys, so `{"name":"a","name":"b"}`
//! would mean what a reader of the first one did not see.

use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess,
    Visitor,
};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::fmt;

/// How a JSON text did not fit its type; each carries the words for the person.
#[derive(Debug, PartialEq, Eq)]
pub enum Misfit {
    /// Not JSON, or JSON of the wrong shape (a missing field, a wrong type).
    Malformed(String),
    /// A field the type does not have.
    UnknownField(String),
    /// A variant (a tag value) the type does not have.
    UnknownVariant(String),
    /// An object that names one key twice.
    DuplicateKey(String),
}

impl Misfit {
    pub fn why(&self) -> &str {
        match self {
            Misfit::Malformed(why)
            | Misfit::UnknownField(why)
            | Misfit::UnknownVariant(why)
            | Misfit::DuplicateKey(why) => why,
        }
    }
}

impl fmt::Display for Misfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.why())
    }
}

impl std::error::Error for Misfit {}

impl de::Error for Misfit {
    fn custom<T: fmt::Display>(msg: T) -> Misfit {
        Misfit::Malformed(msg.to_string())
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Misfit {
        Misfit::UnknownField(format!("unknown field `{field}`, {}", one_of(expected)))
    }

    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Misfit {
        Misfit::UnknownVariant(format!("unknown variant `{variant}`, {}", one_of(expected)))
    }
}

/// serde's own wording for the names a type expects.
fn one_of(names: &[&str]) -> String {
    match names {
        [] => "there are none".into(),
        [one] => format!("expected `{one}`"),
        [a, b] => format!("expected `{a}` or `{b}`"),
        _ => {
            let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("expected one of {}", quoted.join(", "))
        }
    }
}

/// Parses `bytes` as JSON (no key twice in one object) and deserializes `T`
/// from it strictly.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Misfit> {
    let repeated = RefCell::new(None);
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    let value = Unique(&repeated)
        .deserialize(&mut reader)
        .and_then(|value| reader.end().map(|()| value))
        .map_err(|e| match repeated.take() {
            Some(key) => Misfit::DuplicateKey(format!(
                "the key `{key}` appears twice in one object; say it once"
            )),
            None => Misfit::Malformed(e.to_string()),
        })?;
    T::deserialize(Strict(value))
}

/// Reads a JSON value, failing on the first object that repeats a key; the
/// key is kept in the cell, so the kind of failure is data, not words.
#[derive(Clone, Copy)]
struct Unique<'a>(&'a RefCell<Option<String>>);

impl<'de> DeserializeSeed<'de> for Unique<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Unique<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(n.into())
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(n.into())
    }

    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.into()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if fields.contains_key(&key) {
                let error = de::Error::custom(format!("duplicate key `{key}`"));
                *self.0.borrow_mut() = Some(key);
                return Err(error);
            }
            let value = map.next_value_seed(self)?;
            fields.insert(key, value);
        }
        Ok(Value::Object(fields))
    }
}

/// A JSON value as a deserializer whose error is a [`Misfit`].
struct Strict(Value);

impl<'de> IntoDeserializer<'de, Misfit> for Strict {
    type Deserializer = Strict;

    fn into_deserializer(self) -> Strict {
        self
    }
}

impl<'de> Deserializer<'de> for Strict {
    type Error = Misfit;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Misfit> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => visitor.visit_u64(u),
                (None, Some(i), _) => visitor.visit_i64(i),
                (None, None, Some(f)) => visitor.visit_f64(f),
                _ => Err(de::Error::custom(format!(
                    "{n} is not a number serde reads"
                ))),
            },
            Value::String(s) => visitor.visit_string(s),
            Value::Array(items) => {
                visitor.visit_seq(SeqDeserializer::new(items.into_iter().map(Strict)))
            }
            Value::Object(fields) => visitor.visit_map(MapDeserializer::new(
                fields.into_iter().map(|(key, value)| (key, Strict(value))),
            )),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Misfit> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            value => visitor.visit_some(Strict(value)),
        }
    }

    /// A unit variant is spelled as a string (`"opfs"`); other enums are
    /// tagged maps, which serde reads through [`Self::deserialize_any`].
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Misfit> {
        match self.0 {
            Value::String(s) => {
                visitor.visit_enum(IntoDeserializer::<Misfit>::into_deserializer(s))
            }
            value => Strict(value).deserialize_any(visitor).map_err(|e| match e {
                Misfit::Malformed(why) => {
                    Misfit::Malformed(format!("{name} is one of {}: {why}", variants.join(", ")))
                }
                other => other,
            }),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Misfit> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Body {
        name: String,
        #[serde(default)]
        kind: Kind,
        extra: Option<Value>,
    }

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Kind {
        #[default]
        One,
        Two,
    }

    #[derive(Debug, Deserialize)]
    #[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
    enum Frame {
        Result { id: u64 },
    }

    #[test]
    fn each_misfit_is_named_by_kind_not_by_words() {
        let body: Body =
            from_slice(br#"{"name":"a","kind":"two","extra":{"x":[1,-2,0.5,null]}}"#).unwrap();
        assert_eq!((body.name.as_str(), &body.kind), ("a", &Kind::Two));
        assert!(matches!(
            from_slice::<Body>(br#"{"name":"a","nope":1}"#),
            Err(Misfit::UnknownField(why)) if why.starts_with("unknown field `nope`")
        ));
        for malformed in [&b"{"[..], b"[]", br#"{"kind":"one"}"#, br#"{"name":3}"#] {
            assert!(
                matches!(from_slice::<Body>(malformed), Err(Misfit::Malformed(_))),
                "{}",
                String::from_utf8_lossy(malformed)
            );
        }
        assert!(matches!(
            from_slice::<Body>(br#"{"name":"a","kind":"three"}"#),
            Err(Misfit::UnknownVariant(_))
        ));
        assert!(matches!(
            from_slice::<Frame>(br#"{"type":"hello"}"#),
            Err(Misfit::UnknownVariant(_))
        ));
        assert!(matches!(
            from_slice::<Frame>(br#"{"type":"result","id":1,"x":0}"#),
            Err(Misfit::UnknownField(_))
        ));
        assert!(matches!(
            from_slice::<Frame>(br#"{"type":"result","id":1}"#),
            Ok(Frame::Result { id: 1 })
        ));
    }

    #[test]
    fn a_key_said_twice_is_named_at_any_depth_and_once_is_read() {
        for twice in [
            &br#"{"name":"a","name":"b"}"#[..],
            br#"{"name":"a","extra":{"x":1,"x":2}}"#,
            br#"{"name":"a","extra":[{"k":1,"k":1}]}"#,
        ] {
            assert!(
                matches!(from_slice::<Body>(twice), Err(Misfit::DuplicateKey(why)) if why.contains('`')),
                "{}",
                String::from_utf8_lossy(twice)
            );
        }
        let once: Body =
            from_slice(br#"{"name":"a","extra":{"x":1,"y":[1.5,-3,null,true,"s"]}}"#).unwrap();
        assert_eq!(once.extra.unwrap()["y"][0], 1.5);
        assert!(matches!(
            from_slice::<Body>(br#"{"name":"a"} trailing"#),
            Err(Misfit::Malformed(_))
        ));
    }
}
