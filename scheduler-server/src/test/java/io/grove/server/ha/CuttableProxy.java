package io.grove.server.ha;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of ZooKeeper that a test can cut, like a network partition between one
 * scheduler and ZooKeeper: while cut, connections are dropped and new ones refused; the
 * scheduler's session lives on in ZooKeeper until it times out.
 */
public final class CuttableProxy implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean cut;

    public CuttableProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0);
        Thread acceptor = new Thread(this::accept, "zk-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String connectString() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    public void cut() {
        cut = true;
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException e) {
                // already gone
            }
        }
        open.clear();
    }

    public void heal() {
        cut = false;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (cut) {
                    client.close();
                    continue;
                }
                Socket upstream = new Socket(target.getAddress(), target.getPort());
                open.add(client);
                open.add(upstream);
                pipe(client, upstream);
                pipe(upstream, client);
            } catch (IOException e) {
                // closed, or the target is down: the client retries
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0 && !cut; n = in.read(buffer)) {
                    out.write(buffer, 0, n);
                }
            } catch (IOException e) {
                // one side closed
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException e) {
                    // already closed
                }
            }
        }, "zk-proxy-pipe");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        cut();
        server.close();
    }
}
