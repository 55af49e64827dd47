//! The probe boards: devices on ptys that play known moves and time each one, from the DIFF's
//! last byte written to its event on SSE and MQTT.

use super::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// One probe device on a pty: answers `HELLO?` and `SNAP?`, beats, and writes what it is told,
/// saying when the last byte was written.
pub(super) struct Probe {
    tx: mpsc::UnboundedSender<(Vec<u8>, Option<oneshot::Sender<Instant>>)>,
    model: Arc<Mutex<Model>>,
    pub(super) path: PathBuf,
}

struct Model {
    board: bool,
    serial: String,
    points: Vec<u8>,
    seq: u32,
    started: Instant,
}

impl Model {
    fn ms(&self) -> u32 {
        u32::try_from(self.started.elapsed().as_millis()).unwrap_or(u32::MAX)
    }
    fn next_seq(&mut self) -> u32 {
        let seq = self.seq;
        self.seq = self.seq.wrapping_add(1);
        seq
    }
    fn hello(&mut self) -> Vec<u8> {
        if self.board {
            let mut out = frame(&format!("HELLO,BOARD,1,19,hall-1,{}", self.serial));
            let points = String::from_utf8_lossy(&self.points).into_owned();
            let (seq, ms) = (self.next_seq(), self.ms());
            out.extend(frame(&format!("SNAP,{seq},{ms},{points}")));
            out
        } else {
            frame(&format!("HELLO,CLOCK,1,hall-1,{}", self.serial))
        }
    }
}

impl Probe {
    pub(super) fn open(board: bool, serial: String, cancel: CancellationToken) -> Result<Self> {
        let pty = PtyDevice::open()?;
        let path = pty.path().to_path_buf();
        let model = Arc::new(Mutex::new(Model {
            board,
            serial,
            points: vec![b'.'; 361],
            seq: 0,
            started: Instant::now(),
        }));
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(serve(pty, Arc::clone(&model), rx, cancel));
        let first = model.lock().expect("model").hello();
        let _ = tx.send((first, None));
        Ok(Self { tx, model, path })
    }

    /// Places one stone (one DIFF); the instant its last byte was written.
    async fn stone(&self, index: usize, colour: u8) -> Option<Instant> {
        let bytes = {
            let mut m = self.model.lock().expect("model");
            m.points[index] = colour;
            let (seq, ms) = (m.next_seq(), m.ms());
            frame(&format!("DIFF,{seq},{ms},{index}{}", colour as char))
        };
        let (done, written) = oneshot::channel();
        self.tx.send((bytes, Some(done))).ok()?;
        written.await.ok()
    }

    fn press(&self, button: char) {
        let bytes = {
            let mut m = self.model.lock().expect("model");
            let (seq, ms) = (m.next_seq(), m.ms());
            frame(&format!("PRESS,{seq},{ms},{button}"))
        };
        let _ = self.tx.send((bytes, None));
    }
}

async fn serve(
    pty: PtyDevice,
    model: Arc<Mutex<Model>>,
    mut rx: mpsc::UnboundedReceiver<(Vec<u8>, Option<oneshot::Sender<Instant>>)>,
    cancel: CancellationToken,
) {
    let (mut reader, mut writer) = tokio::io::split(pty);
    let mut beat = tokio::time::interval(Duration::from_millis(500));
    let mut line = Vec::new();
    let mut chunk = [0u8; 1024];
    loop {
        tokio::select! {
            () = cancel.cancelled() => break,
            Some((bytes, done)) = rx.recv() => {
                let _ = writer.write_all(&bytes).await;
                if let Some(done) = done {
                    let _ = done.send(Instant::now());
                }
            }
            _ = beat.tick() => {
                let ms = model.lock().expect("model").ms();
                let _ = writer.write_all(&frame(&format!("BEAT,{ms}"))).await;
            }
            read = reader.read(&mut chunk) => match read {
                Ok(0) | Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                Ok(n) => {
                    for &byte in &chunk[..n] {
                        if byte != b'\n' {
                            line.push(byte);
                            continue;
                        }
                        let answer = {
                            let mut m = model.lock().expect("model");
                            if line.starts_with(b"$HELLO?") {
                                m.hello()
                            } else if line.starts_with(b"$SNAP?") && m.board {
                                let points = String::from_utf8_lossy(&m.points).into_owned();
                                let (seq, ms) = (m.next_seq(), m.ms());
                                frame(&format!("SNAP,{seq},{ms},{points}"))
                            } else {
                                Vec::new()
                            }
                        };
                        let _ = writer.write_all(&answer).await;
                        line.clear();
                    }
                }
            },
        }
    }
}

/// The probe's i-th move (0-based): Black on columns A E J N R, White on C G L P T, row by row;
/// every chain keeps a liberty in the empty columns between, so nothing is ever captured.
fn probe_move(i: usize) -> (usize, u8, String) {
    let (j, colour) = (i / 2, if i.is_multiple_of(2) { b'B' } else { b'W' });
    let (row, col) = (j % 19, 4 * (j / 19) + if colour == b'B' { 0 } else { 2 });
    let name = format!("{}{}", LETTERS[col] as char, 19 - row);
    (row * 19 + col, colour, name)
}

/// When each probe move (board, point) reached a channel; the probes wait on `noted` rather
/// than poll, so the bench does not wake every 2 ms per probe on the daemon's two cores.
#[derive(Default)]
pub(super) struct ArrivalBook {
    times: Mutex<HashMap<(String, String), Instant>>,
    noted: tokio::sync::Notify,
}

pub(super) type Arrivals = Arc<ArrivalBook>;

impl ArrivalBook {
    fn note(&self, key: (String, String), at: Instant) {
        self.times.lock().expect("arrivals").insert(key, at);
        self.noted.notify_waiters();
    }

    fn get(&self, key: &(String, String)) -> Option<Instant> {
        self.times.lock().expect("arrivals").get(key).copied()
    }
}

/// When a probe move reached SSE and MQTT, waiting for both until `until` (or `cancel`).
async fn arrivals_of(
    key: &(String, String),
    sse: &ArrivalBook,
    mqtt: &ArrivalBook,
    until: Instant,
    cancel: &CancellationToken,
) -> (Option<Instant>, Option<Instant>) {
    loop {
        // Registered before the maps are read, so a note made in between still wakes us.
        let (sse_noted, mqtt_noted) = (sse.noted.notified(), mqtt.noted.notified());
        tokio::pin!(sse_noted, mqtt_noted);
        sse_noted.as_mut().enable();
        mqtt_noted.as_mut().enable();
        let seen = (sse.get(key), mqtt.get(key));
        if seen.0.is_some() && seen.1.is_some() {
            return seen;
        }
        tokio::select! {
            () = sse_noted => {}
            () = mqtt_noted => {}
            () = tokio::time::sleep_until(until.into()) => return seen,
            () = cancel.cancelled() => return seen,
        }
    }
}

fn record_move(arrivals: &Arrivals, value: &Value, at: Instant) -> bool {
    if value["event"] != "move_played" {
        return false;
    }
    if let (Some(board), Some(point)) = (value["board"].as_str(), value["point"].as_str())
        && board.starts_with("probe-")
    {
        arrivals.note((board.to_owned(), point.to_owned()), at);
    }
    true
}

/// Reads a board's SSE stream; each `move_played` of a probe is noted at its chunk's arrival.
pub(super) async fn sse_reader(url: String, arrivals: Arrivals, cancel: CancellationToken) {
    let client = reqwest::Client::new();
    let Ok(mut response) = client
        .get(&url)
        .header("Accept", "text/event-stream")
        .send()
        .await
    else {
        return;
    };
    let mut pending = String::new();
    loop {
        let chunk = tokio::select! {
            () = cancel.cancelled() => return,
            chunk = response.chunk() => chunk,
        };
        let Ok(Some(chunk)) = chunk else { return };
        let at = Instant::now();
        pending.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = pending.find('\n') {
            let line: String = pending.drain(..=end).collect();
            if let Some(data) = line.strip_prefix("data:")
                && let Ok(value) = serde_json::from_str::<Value>(data.trim())
            {
                record_move(&arrivals, &value, at);
            }
        }
    }
}

/// Subscribes to every board's `moves`; probe moves are noted, all are counted.
pub(super) async fn mqtt_reader(
    port: u16,
    prefix: &str,
    arrivals: Arrivals,
    count: Arc<AtomicU64>,
) -> Result<tokio::task::JoinHandle<()>> {
    let (options, network) = mqtt_options(&format!("{prefix}-bench"), port);
    let (client, mut events) = AsyncClient::new(options, 1000);
    events.set_network_options(network);
    let filter = format!("{prefix}/boards/+/moves");
    let (ready_tx, ready_rx) = oneshot::channel();
    let task = tokio::spawn(async move {
        let mut ready = Some(ready_tx);
        loop {
            match events.poll().await {
                Ok(Event::Incoming(Packet::ConnAck(_))) => {
                    let _ = client.subscribe(filter.clone(), QoS::AtLeastOnce).await;
                }
                Ok(Event::Incoming(Packet::SubAck(_))) => {
                    if let Some(tx) = ready.take() {
                        let _ = tx.send(());
                    }
                }
                Ok(Event::Incoming(Packet::Publish(p))) => {
                    let at = Instant::now();
                    if let Ok(value) = serde_json::from_slice::<Value>(&p.payload)
                        && record_move(&arrivals, &value, at)
                    {
                        count.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Ok(_) => {}
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    });
    tokio::time::timeout(Duration::from_secs(5), ready_rx)
        .await
        .context("no SUBACK from the broker within 5 s")??;
    Ok(task)
}

/// One probe move as measured.
pub(super) struct Sample {
    pub(super) board: String,
    pub(super) number: usize,
    pub(super) written: Instant,
    pub(super) sse: Option<Instant>,
    pub(super) mqtt: Option<Instant>,
    pub(super) counted: bool,
}

/// How a probe paces its moves: after each press it pauses `gap`, plus up to `jitter`.
#[derive(Clone, Copy)]
pub(super) struct Pace {
    pub(super) gap: Duration,
    pub(super) jitter: Duration,
}

impl Pace {
    /// The pauses of one probe: the same in every run, different between probes.
    fn pauses(self, name: &str) -> impl FnMut() -> Duration {
        let seed = name
            .bytes()
            .fold(0_u64, |h, b| h.wrapping_mul(31) ^ u64::from(b));
        let mut rng = SmallRng::seed_from_u64(seed);
        move || self.gap + self.jitter.mul_f64(rng.random_range(0.0..1.0))
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) async fn play_probe(
    name: String,
    board: Probe,
    clock: Probe,
    base: String,
    sse: Arrivals,
    mqtt: Arrivals,
    measuring: Arc<AtomicBool>,
    pace: Pace,
    cancel: CancellationToken,
) -> Vec<Sample> {
    let http = reqwest::Client::new();
    let mut pause = pace.pauses(&name);
    // Plays once the referee reads the board (a stone placed while it is blind would be a leftover).
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline && !cancel.is_cancelled() {
        let state: Value = match http.get(format!("{base}/boards/{name}")).send().await {
            Ok(resp) => resp.json().await.unwrap_or(Value::Null),
            Err(_) => Value::Null,
        };
        let device = &state["device"];
        if device["board"] == "connected"
            && device["clock"] == "connected"
            && device["interpretation"]
                .as_str()
                .is_none_or(|i| i == "reading")
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let mut samples = Vec::new();
    for i in 0..190 {
        if cancel.is_cancelled() {
            break;
        }
        let (index, colour, point) = probe_move(i);
        let counted = measuring.load(Ordering::Relaxed);
        let Some(written) = board.stone(index, colour).await else {
            break;
        };
        let key = (name.clone(), point);
        let wait_until = written + Duration::from_secs(5);
        let (at_sse, at_mqtt) = arrivals_of(&key, &sse, &mqtt, wait_until, &cancel).await;
        samples.push(Sample {
            board: name.clone(),
            number: i + 1,
            written,
            sse: at_sse,
            mqtt: at_mqtt,
            counted: counted && measuring.load(Ordering::Relaxed),
        });
        clock.press(if colour == b'B' { 'L' } else { 'R' });
        tokio::select! {
            () = cancel.cancelled() => break,
            () = tokio::time::sleep(pause()) => {}
        }
    }
    samples
}
