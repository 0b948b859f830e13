//! Held-out sentences (not in the dev set) and a no-panic sweep.

use super::{Resolution, resolve};
use crate::action::Action;
