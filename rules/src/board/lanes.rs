//! Four 16-bit lanes in a `u64`: the probe tests a point's four neighbours at once.

/// Bit 0 of each 16-bit lane.
pub(super) const LO: u64 = 0x0001_0001_0001_0001;
/// Bit 15 of each lane.
pub(super) const HI: u64 = 0x8000_8000_8000_8000;
/// Bits 0-14 of each lane.
pub(super) const LOW15: u64 = 0x7FFF_7FFF_7FFF_7FFF;
/// Lanes 1-3, 2-3 and 3, whole.
pub(super) const LANES_123: u64 = 0xFFFF_FFFF_FFFF_0000;
pub(super) const LANES_23: u64 = 0xFFFF_FFFF_0000_0000;
pub(super) const LANE_3: u64 = 0xFFFF_0000_0000_0000;

/// Four values, one per 16-bit lane (`v[0]` in the low lane).
#[inline(always)]
pub(super) fn lanes(v: [u16; 4]) -> u64 {
    u64::from(v[0]) | u64::from(v[1]) << 16 | u64::from(v[2]) << 32 | u64::from(v[3]) << 48
}

/// Lane `i` of `x`.
#[inline(always)]
pub(super) const fn lane(x: u64, i: usize) -> u16 {
    (x >> (16 * i)) as u16
}

/// The lane of `x` starting at bit `shift` (0, 16, 32 or 48).
#[inline(always)]
pub(super) const fn lane_at(x: u64, shift: u32) -> u16 {
    (x >> shift) as u16
}

/// Bit 0 of each lane set where the lane of `x` is zero; every lane of `x` must be below
/// 0x8000 (adding 0x7FFF then sets bit 15 exactly in the non-zero lanes, with no carry
/// into the next lane).
#[inline(always)]
pub(super) const fn is_zero(x: u64) -> u64 {
    (!(x + LOW15) & HI) >> 15
}

/// [`NO_CHAIN`] in a lane: below 0x8000, as the lane-wise tests need, and the same slot
/// once masked ([`ix`]).
pub(super) const NO_CHAIN_LANE: u64 = 0x7FFF;
