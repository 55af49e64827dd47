//! Builds the published board state (api.md "Board state") from the referee's internals.

use goban_rules::Color;

use crate::go;
use crate::match_state::Match;
use crate::move_records::MoveRecords;
use crate::referee::Referee;
use crate::state::{BoardState, PerColor, Phase, SCHEMA_VERSION, SekiMark};

impl Referee {
    /// The board's full state, as GET /boards/{board} and MQTT `state` publish it, its `seq`
    /// 0: the publisher numbers it (the daemon's ledger, the one counter of a board).
    pub fn state(&self) -> BoardState {
        let physical = go::position_string(self.sight.physical());
        let position = go::position_string(&self.game_readings());
        let mut state = BoardState {
            v: SCHEMA_VERSION,
            seq: 0,
            board: self.config.board.clone(),
            game: None,
            size: self.size.lines(),
            ruleset: self.config.ruleset,
            komi: self
                .config
                .komi
                .unwrap_or_else(|| self.config.ruleset.default_komi()),
            position,
            move_number: 0,
            to_move: Color::Black,
            moves: MoveRecords::new(),
            captures: PerColor::default(),
            clock: None,
            infractions: Vec::new(),
            warnings: PerColor::default(),
            device: self.devices.state().clone(),
            phase: Phase::Setup,
            result: None,
            proposed_result: None,
            result_unit: self.config.ruleset.score_unit(),
            count: None,
            end_signal: None,
            dead_stones: Vec::new(),
            seki: Vec::new(),
            physical,
            guidance: self.guidance.clone(),
            audit: Vec::new(),
            black: self.config.black.clone(),
            white: self.config.white.clone(),
        };
        state.device.interpretation = self.interpretation();
        if let Some(m) = &self.game {
            self.fill_game(&mut state, m);
        }
        state
    }

    /// The game's part of the state.
    fn fill_game(&self, state: &mut BoardState, m: &Match) {
        state.game = Some(m.id().to_owned());
        state.ruleset = m.ruleset;
        state.komi = m.komi;
        state.move_number = m.move_count();
        state.to_move = m.game.to_move();
        state.moves.clone_from(&m.moves);
        state.captures = PerColor {
            black: m.game.captures(Color::Black),
            white: m.game.captures(Color::White),
        };
        state.clock = m.clock.reading(self.now);
        state.infractions = m.audit.infractions().to_vec();
        state.warnings = m.audit.warnings();
        state.phase = m.phase;
        state.result = m.result_text().map(str::to_owned);
        state.proposed_result = m.proposed_text().map(str::to_owned);
        state.result_unit = m.ruleset.score_unit();
        state.count = m.count();
        let dead = m.shown_dead(self.sight.physical());
        state.dead_stones = dead.into_iter().map(|i| go::name(i, self.size)).collect();
        state.seki = m
            .seki()
            .iter()
            .map(|(p, ruling)| SekiMark {
                point: go::name(p.index(), self.size),
                ruling,
            })
            .collect();
        state.end_signal = self.end_signal();
        state.audit = m.audit.entries().to_vec();
        m.black().clone_into(&mut state.black);
        m.white().clone_into(&mut state.white);
    }
}
