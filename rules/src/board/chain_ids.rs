//! Chain ids: every point holds its chain's head with the colour's bit, or the id of an empty
//! or off-board point, so one compare tells a neighbour's colour and chain.

use super::SLOTS;

/// The chain id of an empty point: no colour bit, the scratch slot.
pub(super) const EMPTY_ID: u16 = 0x03FF;
/// The chain id of an off-board slot: bit 12, the scratch slot.
pub(super) const OFF_ID: u16 = 0x13FF;

/// The bit of a chain id that says the chain is of the colour `code` (bit 10 for Black,
/// 11 for White).
#[inline(always)]
pub(super) const fn colour_bit(code: u8) -> u32 {
    9 + code as u32
}

/// The chain id of the chain of colour `code` headed by the point `head`.
#[inline(always)]
pub(super) const fn chain_id(code: u8, head: u16) -> u16 {
    1 << colour_bit(code) | head
}

/// The head point of a chain id.
#[inline(always)]
pub(super) const fn index_of(id: u16) -> u16 {
    id & (SLOTS as u16 - 1)
}

/// No chain: a neighbour that is empty or off the board (no point has this index).
pub(super) const NO_CHAIN: u16 = u16::MAX;
