package io.github.lockable.test.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every command the server runs while this is open, as Redis {@code MONITOR} reports it:
 * what really reached the server, whatever the client believes it sent.
 */
public final class RedisMonitor implements AutoCloseable {

	private static final Pattern ARGUMENT = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

	private final Socket socket;

	private final List<List<String>> commands = new CopyOnWriteArrayList<>();

	private RedisMonitor(Socket socket) {
		this.socket = socket;
	}

	/**
	 * Starts monitoring, logged in as the server's admin.
	 * @param server the server
	 * @return the open monitor; the caller closes it
	 */
	public static RedisMonitor start(RedisTestServer server) {
		try {
			Socket socket = new Socket();
			socket.connect(new InetSocketAddress(server.host(), server.port()), 5000);
			OutputStream out = socket.getOutputStream();
			RedisCredentials admin = server.admin();
			if (admin != null) {
				out.write(("AUTH " + ((admin.username() != null) ? admin.username() + " " : "") + admin.password()
						+ "\r\n").getBytes(StandardCharsets.UTF_8));
			}
			out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
			int replies = (admin != null) ? 2 : 1;
			for (int i = 0; i < replies; i++) {
				String reply = in.readLine();
				if (reply == null || !reply.startsWith("+OK")) {
					socket.close();
					throw new IllegalStateException("MONITOR refused: " + reply);
				}
			}
			RedisMonitor monitor = new RedisMonitor(socket);
			Thread reader = new Thread(() -> monitor.read(in), "redis-monitor");
			reader.setDaemon(true);
			reader.start();
			return monitor;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot monitor " + server, ex);
		}
	}

	private void read(BufferedReader in) {
		try {
			String line;
			while ((line = in.readLine()) != null) {
				List<String> arguments = new ArrayList<>();
				Matcher matcher = ARGUMENT.matcher(line);
				while (matcher.find()) {
					arguments.add(matcher.group(1));
				}
				if (!arguments.isEmpty()) {
					this.commands.add(arguments);
				}
			}
		}
		catch (IOException ex) {
			// closed
		}
	}

	/**
	 * The commands seen so far, each as its arguments, command name first, in Redis's
	 * quoting (non-printable bytes escaped).
	 * @return the commands
	 */
	public List<List<String>> commands() {
		return List.copyOf(this.commands);
	}

	/**
	 * The first script argument ({@code ARGV[1]}) of every {@code EVALSHA} and {@code EVAL}
	 * seen so far: for Lockable's scripts, the owner token.
	 * @return the first arguments after the keys
	 */
	public List<String> firstScriptArguments() {
		List<String> values = new ArrayList<>();
		for (List<String> command : this.commands) {
			String name = command.get(0).toUpperCase(java.util.Locale.ROOT);
			if ((name.equals("EVALSHA") || name.equals("EVAL")) && command.size() > 3) {
				int first = 3 + Integer.parseInt(command.get(2));
				if (command.size() > first) {
					values.add(command.get(first));
				}
			}
		}
		return values;
	}

	@Override
	public void close() {
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
