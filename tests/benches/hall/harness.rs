//! The harness's own cost, with no daemon in the path: a DIFF-sized frame across a pty, and a
//! publish-to-receive loop on the broker. Measured on the idle machine before the halls and
//! again during each hall's window.

use super::*;

/// The pause between rounds of the harness's own paths measured during a hall's window: a
/// round every 70 ms or so, about as many samples as the probes make.
pub(super) const UNDER_LOAD_PAUSE: Duration = Duration::from_millis(70);

/// The pty path alone: a DIFF-sized frame written on the master, read on the slave opened as the
/// daemon opens its ports, and echoed back; `pause` between rounds.
pub(super) async fn pty_cost(rounds: usize, pause: Duration) -> Result<(String, String)> {
    let device = PtyDevice::open()?;
    let path = device.path().to_path_buf();
    let mut host = open_serial(&path, &SerialSettings::default())?;
    let (mut dev_read, mut dev_write) = tokio::io::split(device);
    let line = frame("DIFF,1234,567890,180B");
    let (mut one_way, mut round_trip) = (Vec::new(), Vec::new());
    let mut buf = [0u8; 256];
    for _ in 0..rounds {
        let start = Instant::now();
        dev_write.write_all(&line).await?;
        let mut got = 0;
        while got < line.len() {
            got += host.read(&mut buf[got..]).await?;
        }
        one_way.push(ms(start.elapsed()));
        host.write_all(&line).await?;
        let mut got = 0;
        while got < line.len() {
            got += dev_read.read(&mut buf[got..]).await?;
        }
        round_trip.push(ms(start.elapsed()));
        tokio::time::sleep(pause).await;
    }
    Ok((percentiles(one_way), percentiles(round_trip)))
}

/// Publish -> receive through the broker, without the daemon: QoS 1, 400-byte payloads, `pause`
/// between rounds.
pub(super) async fn broker_cost(port: u16, rounds: usize, pause: Duration) -> Result<String> {
    let topic = format!("goban-hall-loop-{}", std::process::id());
    let (received_tx, mut received) = mpsc::unbounded_channel::<(u64, Instant)>();
    let (options, network) = mqtt_options(&format!("{topic}-sub"), port);
    let (sub, mut sub_loop) = AsyncClient::new(options, 1000);
    sub_loop.set_network_options(network);
    let (ready_tx, ready_rx) = oneshot::channel();
    let sub_topic = topic.clone();
    let sub_task = tokio::spawn(async move {
        let mut ready = Some(ready_tx);
        loop {
            match sub_loop.poll().await {
                Ok(Event::Incoming(Packet::ConnAck(_))) => {
                    let _ = sub.subscribe(sub_topic.clone(), QoS::AtLeastOnce).await;
                }
                Ok(Event::Incoming(Packet::SubAck(_))) => {
                    if let Some(tx) = ready.take() {
                        let _ = tx.send(());
                    }
                }
                Ok(Event::Incoming(Packet::Publish(p))) => {
                    let at = Instant::now();
                    let index = p
                        .payload
                        .get(..8)
                        .map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
                    let _ = received_tx.send((index, at));
                }
                Ok(_) => {}
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    });
    tokio::time::timeout(Duration::from_secs(5), ready_rx)
        .await
        .context("broker loop: no SUBACK within 5 s")??;
    let (options, network) = mqtt_options(&format!("{topic}-pub"), port);
    let (publisher, mut pub_loop) = AsyncClient::new(options, 1000);
    pub_loop.set_network_options(network);
    let pub_task = tokio::spawn(async move {
        loop {
            if pub_loop.poll().await.is_err() {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    });
    let mut latencies = Vec::new();
    for index in 0..rounds as u64 {
        let mut payload = index.to_le_bytes().to_vec();
        payload.resize(400, b'x');
        let sent = Instant::now();
        publisher
            .publish(topic.clone(), QoS::AtLeastOnce, false, payload)
            .await?;
        match tokio::time::timeout(Duration::from_secs(2), received.recv()).await {
            Ok(Some((got, at))) if got == index => latencies.push(ms(at - sent)),
            _ => {}
        }
        tokio::time::sleep(pause).await;
    }
    sub_task.abort();
    pub_task.abort();
    Ok(percentiles(latencies))
}
