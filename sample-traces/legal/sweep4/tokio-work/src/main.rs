//! Legal async Rust (issue 11, fourth pass): a multi-threaded tokio runtime (4 workers) with
//! many tasks passing messages over mpsc channels, timers, a Mutex, spawn_blocking, and tasks
//! spawned and joined in a loop, so stops land in workers parked in epoll/futex, in the
//! scheduler's steal/park code, in task polls (state machines on the heap) and in the
//! blocking pool.
use std::sync::Arc;
use tokio::sync::{Mutex, mpsc};
use tokio::time::{Duration, sleep};

async fn relay(mut rx: mpsc::Receiver<u64>, tx: mpsc::Sender<u64>) {
    while let Some(v) = rx.recv().await {
        if tx.send(v.wrapping_mul(6364136223846793005).wrapping_add(1)).await.is_err() {
            return;
        }
    }
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(4).enable_all().build().unwrap();
    rt.block_on(async {
        let shared = Arc::new(Mutex::new(0u64));
        let (first_tx, mut rx) = mpsc::channel::<u64>(16);
        for _ in 0..50 {
            let (tx, next_rx) = mpsc::channel::<u64>(16);
            tokio::spawn(relay(rx, tx));
            rx = next_rx;
        }
        let sink = {
            let shared = shared.clone();
            tokio::spawn(async move {
                while let Some(v) = rx.recv().await {
                    *shared.lock().await ^= v;
                }
            })
        };
        let mut round = 0u64;
        loop {
            round += 1;
            for i in 0..20 {
                first_tx.send(round * 100 + i).await.unwrap();
            }
            let mut hs = Vec::new();
            for i in 0..8 {
                let shared = shared.clone();
                hs.push(tokio::spawn(async move {
                    sleep(Duration::from_micros(200 + i * 50)).await;
                    let mut g = shared.lock().await;
                    *g = g.wrapping_add(i);
                    *g
                }));
            }
            let b = tokio::task::spawn_blocking(move || (0..20000u64).fold(round, |a, x| a.wrapping_mul(31) ^ x)).await;
            for h in hs {
                let _ = h.await;
            }
            if b.unwrap() == 42 && sink.is_finished() {
                break;
            }
        }
    });
}
