//! A page's hotness class, as the Ariadne paper's lists keep it: read by swap admissions and by
//! backends that compress by class (a leaf, so neither imports the other for it).

/// A page no launch of its app has touched (or its app died since).
pub const COLD: u8 = 0;
/// A page an earlier launch of its app touched, not the last one.
pub const WARM: u8 = 1;
/// A page a relaunch of its app will touch, as its last launch left it (a resume's front).
pub const HOT: u8 = 2;
