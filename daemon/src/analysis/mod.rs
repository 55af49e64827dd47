//! Live analysis for the broadcast: an engine (GNU Go over GTP, Leela Zero/KataGo `*-analyze`, or KataGo's JSON analysis engine) as a low-priority child process, its answers published only once their position is public.
//!
//! The data path: the hub's `state` messages give positions ([`position`]); the
//! [`schedule`] keeps one per board, featured boards first, at most K at once; the
//! [`slots`] hand them to engine processes; the [`service`] stamps each answer as an
//! [`report::Analysis`] and gives it to the public feed, whose broadcast delay sends it
//! when it releases the analysed state (`publish/delay.rs`, `publish_beside`); the [`store`]
//! keeps what was released for REST and the SGF.

pub mod config;
pub mod gtp;
pub mod gtp_engine;
pub mod katago;
pub mod katago_engine;
pub mod lz_analyze;
pub mod position;
pub mod process;
pub mod report;
pub mod schedule;
pub mod service;
pub mod sgf_notes;
pub(crate) mod slots;
pub mod store;

pub use config::{AnalysisConfig, EngineKind, GtpStyle, Perspective, Priority, Resolved};
pub use report::{Analysis, Candidate, EngineInfo};
pub use service::start;
pub use store::{LeadPoint, PublicAnalysis};

#[cfg(test)]
mod driver_tests;
#[cfg(test)]
mod release_tests;

#[cfg(test)]
pub(crate) mod tests_support {
    //! Positions for the unit tests of this module.
    use std::sync::Arc;

    use goban_referee::{Phase, Referee, RefereeConfig};

    use super::position::Position;
    use crate::message::BoardView;

    /// A 9x9 game on `board` as of `seq`: Black on E5 (and White on C3 after `moves` >= 2).
    pub(crate) fn build_position(board: &str, seq: u64, moves: u32) -> Position {
        let config = RefereeConfig {
            board: board.to_owned(),
            ..RefereeConfig::default()
        };
        let mut state = Referee::new(config).expect("a referee").state();
        state.seq = seq;
        state.game = Some(format!("g-{board}"));
        state.phase = Phase::Playing;
        state.size = 9;
        state.komi = 7.5;
        state.move_number = moves;
        let mut stones = vec!['.'; 81];
        stones[40] = 'B';
        if moves >= 2 {
            stones[56] = 'W';
        }
        state.position = stones.into_iter().collect();
        state.to_move = if moves.is_multiple_of(2) {
            goban_rules::Color::Black
        } else {
            goban_rules::Color::White
        };
        Position::of(Arc::from(board), BoardView::build(state, None)).expect("a game under way")
    }
}
