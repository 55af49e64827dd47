mod common;
use common::table::{Table, stone};
use goban_referee::{ArbiterCommand, Device, GameSetup, Input, RefereeConfig};
use goban_rules::Color;
const B: Color = Color::Black;
const W: Color = Color::White;
#[test]
fn dbg() {
    // (stone ms, snapshot ms, press ms, connect before start)
    for (stone_ms, snap_ms, press_ms, early) in [
        (150, 200, 250, false),
        (150, 151, 300, false),
        (100, 400, 450, false),
        (150, 200, 250, true),
        (150, 50, 250, true),
        (150, 160, 250, true),
    ] {
        let mut t = Table::unread(RefereeConfig::default());
        if early {
            t.send(Input::DeviceConnected {
                device: Device::Board,
            });
            t.send(Input::DeviceConnected {
                device: Device::Clock,
            });
        }
        t.arbiter(ArbiterCommand::StartGame(GameSetup::default()));
        if !early {
            t.send(Input::DeviceConnected {
                device: Device::Board,
            });
            t.send(Input::DeviceConnected {
                device: Device::Clock,
            });
        }
        let mut evs: Vec<(u64, u8)> = vec![(stone_ms, 0), (snap_ms, 1), (press_ms, 2)];
        evs.sort();
        let mut now = 0;
        for (at, what) in evs {
            t.wait(at - now);
            now = at;
            match what {
                0 => {
                    let i = t.idx("Q16");
                    if now > snap_ms {
                        t.set(&[(i, stone(B))]);
                    } else {
                        t.board[i] = stone(B);
                    }
                }
                1 => {
                    let points: String = t.board.iter().map(|r| r.to_char()).collect();
                    t.send(Input::BoardSnapshot { points });
                }
                _ => t.press_black(),
            }
        }
        t.wait(1_000);
        t.play("Q4", W, &[]);
        t.play("D16", B, &[]);
        t.play("D4", W, &[]);
        let st = t.referee.state();
        println!(
            "{stone_ms} {snap_ms} {press_ms} {early}: {:?} alerts {:?} unexplained {} guidance {:?}",
            t.moves(),
            t.alerts().iter().map(|a| a.kind.id()).collect::<Vec<_>>(),
            st.device.unexplained_presses,
            st.guidance
        );
    }
}
