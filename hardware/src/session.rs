//! One connected session: read frames, check sequences, gate untrusted board frames, feed the watchdog, write commands.

use crate::handshake::DeviceInfo;
use crate::link_state::{DisconnectReason, LinkEvent, LinkState};
use crate::outbox::Outbox;
use crate::stats::phase_of;
use crate::sync::ClockMap;
use crate::watchdog::Watchdog;
use crate::wire::{FrameReader, Read};
use goban_protocol::{DeviceKind, Frame, SeqTracker};
use std::time::Duration;
use tokio::io::AsyncWrite;
use tokio::time::{Instant, MissedTickBehavior, interval_at, sleep_until};

/// How a session or connection attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SessionEnd {
    /// Cancelled, or the event receiver is gone: the link stops.
    Stop,
    /// A working connection was lost: reconnect from the shortest backoff.
    Lost,
    /// The attempt failed (port missing, handshake failed): keep backing off.
    Retry,
}

/// State of one connected session: one task reads, writes and keeps the watchdog.
pub(crate) struct Session<'a, W> {
    state: &'a mut LinkState,
    devices: Vec<DeviceInfo>,
    /// Host frames waiting for the port, written between reads by this task.
    outbox: Outbox<W>,
    board_seq: SeqTracker,
    clock_seq: SeqTracker,
    /// Board frames are not trusted until a SNAP arrives (after connect and after a gap).
    awaiting_snap: bool,
    watchdog: Watchdog,
    /// v1.1: the device announced `SYNC` and is alone on its port; its echoes map its `ms`.
    sync: bool,
    clock_map: ClockMap,
}

impl<'a, W: AsyncWrite + Unpin> Session<'a, W> {
    /// Starts the session on the connection's write half.
    pub(crate) fn new(state: &'a mut LinkState, devices: Vec<DeviceInfo>, write: W) -> Self {
        let silence = Duration::from_millis(state.config.watchdog_ms);
        Self {
            state,
            devices,
            outbox: Outbox::new(write),
            board_seq: SeqTracker::new(),
            clock_seq: SeqTracker::new(),
            awaiting_snap: false,
            watchdog: Watchdog::new(silence, Instant::now()),
            sync: false,
            clock_map: ClockMap::new(),
        }
    }

    /// Runs until the connection is lost or the link is cancelled.
    pub(crate) async fn run(
        mut self,
        mut reader: FrameReader,
        early: Vec<(Frame, u64)>,
    ) -> SessionEnd {
        let end = self.run_inner(&mut reader, early).await;
        self.state.count(|s| s.connected = false);
        if let SessionEnd::Lost = end {
            self.state.count(|s| s.disconnects += 1);
        }
        self.state.publish_stats();
        end
    }

    async fn run_inner(
        &mut self,
        reader: &mut FrameReader,
        early: Vec<(Frame, u64)>,
    ) -> SessionEnd {
        if !self.handle_connected().await {
            return SessionEnd::Stop;
        }
        for (frame, received_ms) in early {
            if let Some(end) = self.handle_early(frame, received_ms).await {
                return end;
            }
        }
        let period_ms = self.state.config.stats_interval_ms.max(10);
        let period = Duration::from_millis(period_ms);
        // The first tick one period from now (the SNAP? of the connect is already queued), and
        // then some of another: a share fixed by the port, so the ports of a hall, connected
        // together at start-up, do not tick together.
        let phase = Duration::from_millis(phase_of(&self.state.port, period_ms));
        let mut tick = interval_at(Instant::now() + period + phase, period);
        tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            let end = tokio::select! {
                () = self.state.cancel.cancelled() => Some(SessionEnd::Stop),
                read = reader.next(&mut self.state.decoder) => self.handle_read(read).await,
                cmd = self.state.commands.recv(), if self.state.commands_open => {
                    self.handle_command(cmd);
                    None
                }
                () = sleep_until(self.watchdog.deadline()) => self.handle_silence().await,
                _ = tick.tick() => { self.handle_tick(); None }
                // Polled beside the reads: a device that stops reading never stops them.
                () = self.outbox.write_some(), if self.outbox.has_pending() => None,
            };
            if let Some(end) = end {
                return end;
            }
        }
    }

    /// Announces the devices and asks the board for the SNAP that makes it trusted.
    async fn handle_connected(&mut self) -> bool {
        let devices = self.devices.clone();
        self.state.count(|s| {
            s.connected = true;
            s.devices = devices.clone();
        });
        let port = self.state.port.clone();
        if !self
            .state
            .emit(LinkEvent::Connected { port, devices })
            .await
        {
            return false;
        }
        self.state.publish_stats();
        if self.has(DeviceKind::Board) {
            self.distrust_board();
        }
        true
    }

    fn has(&self, kind: DeviceKind) -> bool {
        self.devices.iter().any(|d| d.kind == kind)
    }

    /// Trusts nothing from the board until a SNAP arrives, and asks for one (spec "Board to host").
    fn distrust_board(&mut self) {
        self.awaiting_snap = true;
        self.queue_write(Frame::SnapQuery);
    }

    fn queue_write(&mut self, frame: Frame) {
        if self.outbox.push(&frame) {
            self.state.count(|s| s.commands_sent += 1);
        } else {
            self.state.count(|s| s.commands_dropped += 1);
        }
    }

    fn handle_command(&mut self, cmd: Option<Frame>) {
        match cmd {
            Some(frame) => self.queue_write(frame),
            // Every handle dropped: stop polling the closed queue (it would spin).
            None => self.state.commands_open = false,
        }
    }

    fn handle_tick(&mut self) {
        if self.awaiting_snap {
            self.queue_write(Frame::SnapQuery);
        }
        if self.sync {
            self.send_sync();
        }
        self.state.tick_stats();
    }

    async fn handle_silence(&mut self) -> Option<SessionEnd> {
        if !self.watchdog.is_expired(Instant::now()) {
            return None;
        }
        let silent_ms = self.state.config.watchdog_ms;
        tracing::warn!(silent_ms, "device silent, disconnected");
        Some(self.lost(DisconnectReason::Silent { silent_ms }).await)
    }

    /// v1.1: a `$SYNC` stamped with the host time it is queued (it is written in the next
    /// turn of this task's loop, behind at most a few host frames).
    fn send_sync(&mut self) {
        let frame = self.clock_map.handle_send(self.state.clock.now_ms());
        self.queue_write(frame);
    }

    /// v1.1 `$CAPS`: SYNC is used only for a device alone on its port (on a shared port the
    /// echoes of two devices cannot be told apart, and they share one lag anyway).
    fn handle_caps(&mut self, sync: bool) {
        self.sync = sync && self.state.config.expect.len() == 1;
        if self.sync {
            self.send_sync();
        }
    }

    /// When a frame happened on the host's time line: its device `ms` mapped through SYNC,
    /// else the time it was read.
    fn happened_at(&mut self, frame: &Frame, received_ms: u64) -> u64 {
        let mapped = frame
            .device_ms()
            .filter(|_| self.sync)
            .and_then(|ms| self.clock_map.map(ms, received_ms));
        mapped.unwrap_or(received_ms)
    }

    async fn lost(&mut self, reason: DisconnectReason) -> SessionEnd {
        let port = self.state.port.clone();
        if self
            .state
            .emit(LinkEvent::Disconnected { port, reason })
            .await
        {
            SessionEnd::Lost
        } else {
            SessionEnd::Stop
        }
    }

    async fn handle_read(&mut self, read: std::io::Result<Read>) -> Option<SessionEnd> {
        match read {
            Ok(Read::Frame { frame, read_ms }) => self.handle_frame(frame, read_ms).await,
            Ok(Read::Rejected(rejection)) => {
                tracing::debug!(reason = %rejection.reason, dropped = rejection.dropped, "frame rejected");
                None
            }
            Ok(Read::Eof) => Some(self.lost(DisconnectReason::Closed).await),
            Err(err) => {
                let reason = DisconnectReason::Io {
                    error: err.to_string(),
                };
                Some(self.lost(reason).await)
            }
        }
    }

    /// Routes one valid frame; `Some` ends the session.
    async fn handle_frame(&mut self, frame: Frame, received_ms: u64) -> Option<SessionEnd> {
        self.watchdog.feed(Instant::now());
        self.state.count(|s| s.last_frame_ms = Some(received_ms));
        if let Some(resynced) = self.state.decoder.take_resync() {
            tracing::info!(rejected = resynced, "stream resynchronised");
        }
        let forward = match &frame {
            Frame::BoardHello { .. } | Frame::ClockHello { .. } => {
                return self.handle_hello(&frame).await;
            }
            Frame::Snap { seq, .. } => {
                self.board_seq.reset();
                self.board_seq.observe(*seq);
                self.awaiting_snap = false;
                true
            }
            Frame::Diff { seq, .. } => match self.handle_diff_seq(*seq).await {
                Ok(forward) => forward,
                Err(end) => return Some(end),
            },
            Frame::Press { seq, .. } | Frame::Key { seq, .. } => {
                if let Err(end) = self.handle_clock_seq(*seq).await {
                    return Some(end);
                }
                true
            }
            Frame::Beat { .. } => self.state.config.forward_beats,
            Frame::Fault { .. } => true,
            // v1.1 ZONE: a full reading of the off-board zones, no counter; trusted with the board.
            Frame::Zone { .. } => !self.awaiting_snap,
            Frame::Caps { sync, .. } => {
                self.handle_caps(*sync);
                false
            }
            Frame::SyncEcho { token, ms } => {
                self.clock_map.handle_echo(*token, *ms, received_ms);
                false
            }
            // Host frames echoed back (a loop-back or a misbehaving device) are not device news.
            _ => false,
        };
        if !forward {
            return None;
        }
        let at_ms = self.happened_at(&frame, received_ms);
        let event = LinkEvent::Frame {
            frame,
            received_ms,
            at_ms,
        };
        if !self.state.emit(event).await {
            return Some(SessionEnd::Stop);
        }
        None
    }

    /// A frame read during the handshake, before the device's HELLO: a backlog of unknown age
    /// (issue 39.7). Board readings are dropped (the SNAP asked for at connect reads the board
    /// afresh); presses go on as [`LinkEvent::Backlog`], since their order against the board
    /// is lost; everything else as usual.
    async fn handle_early(&mut self, frame: Frame, received_ms: u64) -> Option<SessionEnd> {
        match frame {
            Frame::Snap { .. } | Frame::Diff { .. } | Frame::Zone { .. } => {
                self.state.count(|s| s.untrusted_frames += 1);
                None
            }
            Frame::Press { seq, .. } => {
                if let Err(end) = self.handle_clock_seq(seq).await {
                    return Some(end);
                }
                let event = LinkEvent::Backlog { frame, received_ms };
                (!self.state.emit(event).await).then_some(SessionEnd::Stop)
            }
            frame => self.handle_frame(frame, received_ms).await,
        }
    }

    /// Checks a PRESS or KEY sequence number: a gap is a lost press, which the host cannot
    /// invent, so it is reported (a device alert) and the frame still goes through.
    async fn handle_clock_seq(&mut self, seq: goban_protocol::Seq) -> Result<(), SessionEnd> {
        let event = self.clock_seq.observe(seq);
        if event.is_continuous() {
            return Ok(());
        }
        self.state.count(|s| s.sequence_gaps += 1);
        tracing::warn!(?event, "clock sequence gap: a press may be lost");
        let gap = LinkEvent::SequenceGap {
            kind: DeviceKind::Clock,
            event,
        };
        if self.state.emit(gap).await {
            Ok(())
        } else {
            Err(SessionEnd::Stop)
        }
    }

    /// Checks a DIFF's sequence number: `Ok(true)` forwards it, `Ok(false)` withholds it
    /// (untrusted until a SNAP), `Err` ends the session.
    async fn handle_diff_seq(&mut self, seq: goban_protocol::Seq) -> Result<bool, SessionEnd> {
        if self.awaiting_snap {
            self.state.count(|s| s.untrusted_frames += 1);
            return Ok(false);
        }
        let event = self.board_seq.observe(seq);
        if event.is_continuous() {
            return Ok(true);
        }
        self.state.count(|s| {
            s.sequence_gaps += 1;
            s.untrusted_frames += 1;
        });
        tracing::warn!(?event, "board sequence gap: snapshot requested");
        self.distrust_board();
        let gap = LinkEvent::SequenceGap {
            kind: DeviceKind::Board,
            event,
        };
        if self.state.emit(gap).await {
            Ok(false)
        } else {
            Err(SessionEnd::Stop)
        }
    }

    /// A HELLO mid-session: a rebooted device (distrust it again), a second device on a shared
    /// port, or a wrong device (end the session with an alert).
    async fn handle_hello(&mut self, frame: &Frame) -> Option<SessionEnd> {
        let info = DeviceInfo::from_hello(frame)?;
        if !self.state.config.expect.contains(&info.kind) {
            let port = self.state.port.clone();
            let found = format!("{} {}", info.kind.as_str(), info.serial);
            let expected = self.state.config.expect.clone();
            if !self
                .state
                .emit(LinkEvent::WrongDevice {
                    port,
                    expected,
                    found,
                })
                .await
            {
                return Some(SessionEnd::Stop);
            }
            return Some(self.lost(DisconnectReason::WrongDevice).await);
        }
        // A rebooted device: its ms restarted; it announces its capabilities again.
        self.sync = false;
        self.clock_map.reset();
        match info.kind {
            DeviceKind::Board => {
                self.board_seq.reset();
                self.distrust_board();
            }
            DeviceKind::Clock => self.clock_seq.reset(),
        }
        self.devices.retain(|d| d.kind != info.kind);
        self.devices.push(info);
        (!self.handle_connected().await).then_some(SessionEnd::Stop)
    }
}
