package io.github.lockable.test.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on a free loopback port in front of a Redis server, for network faults
 * between the application and Redis: added latency, a connection cut while a reply is on
 * its way, and half-open connections.
 * <p>
 * Threads are bounded: one accepts, and each connection has two (one per direction), at
 * most {@value #MAX_CONNECTIONS} connections at a time; one more is closed at once.
 */
public final class FaultyProxy implements AutoCloseable {

	static final int MAX_CONNECTIONS = 16;

	private final ServerSocket serverSocket;

	private final InetSocketAddress target;

	private final List<Link> links = new CopyOnWriteArrayList<>();

	private final AtomicInteger accepted = new AtomicInteger();

	private final AtomicBoolean cutOnNextReply = new AtomicBoolean();

	private volatile long latencyNanos;

	private volatile boolean halfOpen;

	private FaultyProxy(ServerSocket serverSocket, InetSocketAddress target) {
		this.serverSocket = serverSocket;
		this.target = target;
	}

	/**
	 * Starts a proxy to the given server.
	 * @param host the server's host
	 * @param port the server's port
	 * @return the listening proxy; the caller closes it
	 */
	public static FaultyProxy start(String host, int port) {
		ServerSocket serverSocket;
		try {
			serverSocket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot listen on a loopback port", ex);
		}
		FaultyProxy proxy = new FaultyProxy(serverSocket, new InetSocketAddress(host, port));
		daemon(proxy::acceptForever, "faulty-proxy-accept").start();
		return proxy;
	}

	public String host() {
		return this.serverSocket.getInetAddress().getHostAddress();
	}

	public int port() {
		return this.serverSocket.getLocalPort();
	}

	/**
	 * Delays everything forwarded, in both directions, by this much (each way).
	 * @param oneWay the added one-way delay; zero for none
	 */
	public void latency(Duration oneWay) {
		this.latencyNanos = oneWay.toNanos();
	}

	/**
	 * The next bytes a server sends, on any connection, are dropped and both sides of that
	 * connection closed: the command ran, its client never hears of it.
	 */
	public void cutOnNextReply() {
		this.cutOnNextReply.set(true);
	}

	/**
	 * Every connection, open or new, goes half open: nothing is forwarded any more and
	 * nothing is read (so the kernel's buffers fill), and nothing is closed, as when a peer
	 * vanished without a FIN or a firewall dropped the connection's state.
	 */
	public void halfOpen() {
		this.halfOpen = true;
		this.links.forEach(Link::goHalfOpen);
	}

	/**
	 * Removes the faults for connections opened from now on: no latency, no cut, no half
	 * open. Connections that went half open stay so, as a real one does: their client must
	 * notice and open another.
	 */
	public void heal() {
		this.latencyNanos = 0;
		this.cutOnNextReply.set(false);
		this.halfOpen = false;
	}

	/**
	 * How many connections the proxy accepted so far.
	 * @return the count
	 */
	public int connectionsAccepted() {
		return this.accepted.get();
	}

	private void acceptForever() {
		while (!this.serverSocket.isClosed()) {
			Socket client;
			try {
				client = this.serverSocket.accept();
			}
			catch (IOException ex) {
				return;
			}
			this.accepted.incrementAndGet();
			this.links.removeIf(Link::isClosed);
			if (this.links.size() >= MAX_CONNECTIONS) {
				closeQuietly(client);
				continue;
			}
			Socket server = new Socket();
			try {
				server.connect(this.target, 2000);
			}
			catch (IOException ex) {
				// The server is down: so is the connection through the proxy.
				closeQuietly(server);
				closeQuietly(client);
				continue;
			}
			Link link = new Link(client, server);
			if (this.halfOpen) {
				link.goHalfOpen();
			}
			this.links.add(link);
			link.start();
		}
	}

	@Override
	public void close() {
		closeQuietly(this.serverSocket);
		this.links.forEach(Link::close);
	}

	private static Thread daemon(Runnable task, String name) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		return thread;
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// closing anyway
		}
	}

	/**
	 * One client connection and its connection to the server.
	 */
	private final class Link {

		private final Socket client;

		private final Socket server;

		private final CountDownLatch closed = new CountDownLatch(1);

		private volatile boolean halfOpen;

		Link(Socket client, Socket server) {
			this.client = client;
			this.server = server;
		}

		void start() {
			daemon(() -> pump(this.client, this.server, false), "faulty-proxy-up").start();
			daemon(() -> pump(this.server, this.client, true), "faulty-proxy-down").start();
		}

		void goHalfOpen() {
			this.halfOpen = true;
		}

		boolean isClosed() {
			return this.closed.getCount() == 0;
		}

		private void pump(Socket from, Socket to, boolean fromServer) {
			byte[] buffer = new byte[8192];
			try {
				InputStream in = from.getInputStream();
				OutputStream out = to.getOutputStream();
				while (!this.halfOpen) {
					int read = in.read(buffer);
					if (read < 0) {
						break;
					}
					if (this.halfOpen) {
						break;
					}
					long latency = FaultyProxy.this.latencyNanos;
					if (latency > 0) {
						// The injected fault itself, not a wait for a condition.
						Thread.sleep(Duration.ofNanos(latency).toMillis());
					}
					if (fromServer && FaultyProxy.this.cutOnNextReply.compareAndSet(true, false)) {
						break;
					}
					out.write(buffer, 0, read);
					out.flush();
				}
				if (this.halfOpen) {
					// Neither forward, nor read, nor close, until the proxy itself closes.
					this.closed.await();
				}
			}
			catch (IOException ex) {
				// one side closed
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			close();
		}

		void close() {
			closeQuietly(this.client);
			closeQuietly(this.server);
			this.closed.countDown();
		}

	}

}
