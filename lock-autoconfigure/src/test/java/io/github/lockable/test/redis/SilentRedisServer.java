package io.github.lockable.test.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A "Redis" on a free loopback port that accepts connections and never answers: what a
 * hung server, a black-holing proxy or a wrong port behind a load balancer look like to a
 * client. Whatever a client sends is read and discarded. Closing it closes every
 * connection, which fails a client's pending handshake at once.
 */
public final class SilentRedisServer implements AutoCloseable, AfterAllCallback {

	private final ServerSocket serverSocket;

	private final List<Socket> accepted = new CopyOnWriteArrayList<>();

	private SilentRedisServer(ServerSocket serverSocket) {
		this.serverSocket = serverSocket;
	}

	/**
	 * Starts a silent server on a free loopback port.
	 * @return the listening server; the caller closes it
	 */
	public static SilentRedisServer start() {
		ServerSocket serverSocket;
		try {
			serverSocket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot listen on a loopback port", ex);
		}
		SilentRedisServer server = new SilentRedisServer(serverSocket);
		daemon(server::acceptForever, "silent-redis-accept").start();
		return server;
	}

	public String host() {
		return this.serverSocket.getInetAddress().getHostAddress();
	}

	public int port() {
		return this.serverSocket.getLocalPort();
	}

	/**
	 * How many connections the server accepted so far.
	 * @return the number of accepted connections
	 */
	public int connectionsAccepted() {
		return this.accepted.size();
	}

	private void acceptForever() {
		while (!this.serverSocket.isClosed()) {
			try {
				Socket socket = this.serverSocket.accept();
				this.accepted.add(socket);
				if (this.serverSocket.isClosed()) {
					socket.close();
					return;
				}
				daemon(() -> discard(socket), "silent-redis-read").start();
			}
			catch (IOException ex) {
				// closed
			}
		}
	}

	private static void discard(Socket socket) {
		byte[] buffer = new byte[1024];
		try (InputStream in = socket.getInputStream()) {
			while (in.read(buffer) >= 0) {
				// never answer
			}
		}
		catch (IOException ex) {
			// closed
		}
	}

	private static Thread daemon(Runnable task, String name) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		return thread;
	}

	@Override
	public void close() {
		try {
			this.serverSocket.close();
			for (Socket socket : this.accepted) {
				socket.close();
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Closes the server after a test class that registered it as an extension
	 * ({@code @RegisterExtension} on a static field).
	 */
	@Override
	public void afterAll(ExtensionContext context) {
		close();
	}

}
