//! The embedded broker's public listener: checks each client's CONNECT and every PUBLISH against [`Grants`], then relays to rumqttd on a private loopback listener.
//!
//! rumqttd 0.20 authenticates a CONNECT (a user table, or a hook given the
//! client id, user name and password) but has no ACL: once connected, any
//! client publishes anywhere, retained or not, and a client reusing an id
//! takes the session of the client holding it. So rumqttd listens only on
//! loopback behind a password made at each start, and clients reach it
//! through this guard, which
//! - lets in anonymous readers (if allowed) and configured users,
//! - refuses a will the client may not publish itself,
//! - renames every client id to `ext:<id>`, so no client can ever take the
//!   daemon's session,
//! - closes a connection that publishes where it may not (MQTT 3.1.1
//!   section 3.3.5: "close the Network Connection"),
//! - relays everything else unchanged.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::BytesMut;
use rumqttc::ConnectReturnCode;
use rumqttc::mqttbytes::v4::{ConnAck, Connect, Login, Packet, Publish};
use rumqttc::mqttbytes::{self, PacketType};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use super::grants::{Client, Grants, Refusal};

/// Prefix of every relayed client id: the daemon's own id never has it.
pub(crate) const EXTERNAL_ID_PREFIX: &str = "ext:";
/// A client must send its CONNECT within this.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Clients relayed at once.
const MAX_CLIENTS: usize = 10_000;

/// What the guard needs to relay a client.
pub(crate) struct Guard {
    /// The access rules.
    pub(crate) grants: Grants,
    /// rumqttd's private listener.
    pub(crate) inner: SocketAddr,
    /// The guard's own login on rumqttd.
    pub(crate) login: Login,
    /// Largest packet relayed.
    pub(crate) max_packet: usize,
}

/// Accepts clients on `listener` for ever (the broker lives as long as the process).
pub(crate) async fn run(listener: TcpListener, guard: Arc<Guard>) {
    let slots = Arc::new(Semaphore::new(MAX_CLIENTS));
    let serial = Arc::new(AtomicU64::new(0));
    loop {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            return;
        };
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(err) => {
                tracing::warn!(cause = %err, "embedded broker: accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let guard = guard.clone();
        let serial = serial.clone();
        tokio::spawn(async move {
            if let Err(why) = relay(stream, &guard, &serial).await {
                tracing::info!(%peer, "embedded broker: client closed: {why}");
            }
            drop(permit);
        });
    }
}

/// One client: its CONNECT checked and rewritten, then both ways relayed until either side closes.
async fn relay(mut client: TcpStream, guard: &Guard, serial: &AtomicU64) -> Result<(), String> {
    let _ = client.set_nodelay(true);
    let mut buffer = BytesMut::with_capacity(4096);
    let connect = tokio::time::timeout(
        CONNECT_TIMEOUT,
        read_packet(&mut client, &mut buffer, guard.max_packet),
    )
    .await
    .map_err(|_| "no CONNECT in time".to_owned())??;
    let Packet::Connect(connect) = connect else {
        return Err("first packet is not CONNECT".into());
    };
    let who = match admit(&connect, &guard.grants) {
        Ok(who) => who,
        Err(refusal) => {
            refuse(&mut client, &refusal).await;
            return Err(format!("CONNECT refused ({refusal:?})"));
        }
    };
    let connect = rewrite(connect, &guard.login, serial);
    let mut broker = TcpStream::connect(guard.inner)
        .await
        .map_err(|e| format!("broker unreachable: {e}"))?;
    let _ = broker.set_nodelay(true);
    let mut bytes = BytesMut::new();
    Packet::Connect(connect)
        .write(&mut bytes, guard.max_packet)
        .map_err(|e| e.to_string())?;
    broker.write_all(&bytes).await.map_err(|e| e.to_string())?;
    let (from_broker, to_broker) = broker.into_split();
    let (from_client, mut to_client) = client.into_split();
    let downstream = async move {
        let mut from_broker = from_broker;
        let _ = tokio::io::copy(&mut from_broker, &mut to_client).await;
    };
    let upstream = forward_checked(from_client, to_broker, buffer, guard, who);
    tokio::select! {
        () = downstream => Ok(()),
        result = upstream => result,
    }
}

/// Whether the CONNECT may go in: its login, and its will (which the broker publishes for it).
fn admit(connect: &Connect, grants: &Grants) -> Result<Client, Refusal> {
    let login = connect
        .login
        .as_ref()
        .map(|l| (l.username.as_str(), l.password.as_str()));
    let who = grants.authenticate(login)?;
    if let Some(will) = &connect.last_will
        && !grants.may_publish(&who, &will.topic)
    {
        return Err(Refusal::NotAuthorized);
    }
    Ok(who)
}

/// The client's id gets [`EXTERNAL_ID_PREFIX`] (an empty one a fresh name), its login the guard's.
fn rewrite(mut connect: Connect, login: &Login, serial: &AtomicU64) -> Connect {
    let id = if connect.client_id.is_empty() {
        format!("anonymous-{}", serial.fetch_add(1, Ordering::Relaxed))
    } else {
        std::mem::take(&mut connect.client_id)
    };
    connect.client_id = format!("{EXTERNAL_ID_PREFIX}{id}");
    connect.login = Some(login.clone());
    connect
}

/// Answers a refused CONNECT with its return code, then the caller closes.
async fn refuse(client: &mut TcpStream, refusal: &Refusal) {
    let code = match refusal {
        Refusal::BadCredentials => ConnectReturnCode::BadUserNamePassword,
        Refusal::NotAuthorized => ConnectReturnCode::NotAuthorized,
    };
    let mut bytes = BytesMut::new();
    if Packet::ConnAck(ConnAck::new(code, false))
        .write(&mut bytes, 16)
        .is_ok()
    {
        let _ = client.write_all(&bytes).await;
        let _ = client.shutdown().await;
    }
}

/// Client to broker: each packet framed; a PUBLISH where the client may not write closes
/// the connection, a second CONNECT too; the rest goes through byte for byte.
async fn forward_checked(
    mut from_client: OwnedReadHalf,
    mut to_broker: OwnedWriteHalf,
    mut buffer: BytesMut,
    guard: &Guard,
    who: Client,
) -> Result<(), String> {
    loop {
        let Some(frame) = next_frame(&mut from_client, &mut buffer, guard.max_packet).await? else {
            return Ok(());
        };
        let header = mqttbytes::check(frame.iter(), guard.max_packet).map_err(|e| e.to_string())?;
        match header.packet_type().map_err(|e| e.to_string())? {
            PacketType::Publish => {
                let publish =
                    Publish::read(header, frame.clone().freeze()).map_err(|e| e.to_string())?;
                if !guard.grants.may_publish(&who, &publish.topic) {
                    metrics::counter!("goban_mqtt_refused_publish_total").increment(1);
                    return Err(format!("publish to {:?} refused", publish.topic));
                }
            }
            PacketType::Connect => return Err("second CONNECT".into()),
            _ => {}
        }
        to_broker
            .write_all(&frame)
            .await
            .map_err(|e| e.to_string())?;
    }
}

/// The next whole packet's bytes, `None` at a clean end of stream.
async fn next_frame(
    from: &mut OwnedReadHalf,
    buffer: &mut BytesMut,
    max_packet: usize,
) -> Result<Option<BytesMut>, String> {
    loop {
        match mqttbytes::check(buffer.iter(), max_packet) {
            Ok(header) => return Ok(Some(buffer.split_to(header.frame_length()))),
            Err(mqttbytes::Error::InsufficientBytes(_)) => {}
            Err(err) => return Err(err.to_string()),
        }
        if from.read_buf(buffer).await.map_err(|e| e.to_string())? == 0 {
            return if buffer.is_empty() {
                Ok(None)
            } else {
                Err("closed inside a packet".into())
            };
        }
    }
}

/// The first packet, parsed.
async fn read_packet(
    from: &mut TcpStream,
    buffer: &mut BytesMut,
    max_packet: usize,
) -> Result<Packet, String> {
    loop {
        match Packet::read(buffer, max_packet) {
            Ok(packet) => return Ok(packet),
            Err(mqttbytes::Error::InsufficientBytes(_)) => {}
            Err(err) => return Err(err.to_string()),
        }
        if from.read_buf(buffer).await.map_err(|e| e.to_string())? == 0 {
            return Err("closed before CONNECT".into());
        }
    }
}
