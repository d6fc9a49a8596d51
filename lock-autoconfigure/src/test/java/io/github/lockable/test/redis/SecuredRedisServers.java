package io.github.lockable.test.redis;

import java.util.List;
import java.util.Map;

/**
 * Redis servers that refuse anonymous clients, for the least-privilege tests: one with
 * {@code requirepass}, one whose only user for the application has exactly the
 * permissions Lockable needs ({@link #aclRules(String)}), the default user switched off.
 * The harness's own connection logs in as an admin with every permission.
 */
public final class SecuredRedisServers {

	/** The application's user on the ACL server. */
	public static final RedisCredentials LOCKABLE_USER = new RedisCredentials("lockable", "lockable-test-secret");

	/** The password of the {@code requirepass} server; no user name, as most applications set it. */
	public static final RedisCredentials REQUIREPASS = new RedisCredentials(null, "requirepass-test-secret");

	private static final RedisCredentials ADMIN = new RedisCredentials("admin", "admin-test-secret");

	private SecuredRedisServers() {
	}

	/**
	 * The permissions Lockable needs with the given key prefix, as the README gives them.
	 * @param prefix {@code lockable.key-prefix}
	 * @return the rules of an ACL {@code user} line, after its name, {@code on} and password
	 */
	public static String aclRules(String prefix) {
		return "resetkeys ~" + prefix + ":* ~lockable:fence:* resetchannels &{" + prefix + ":*}:released"
				+ " -@all +evalsha +eval +set +get +del +time +pttl +pexpire +spublish +exists +ssubscribe"
				+ " +sunsubscribe +command|info +info +scan";
	}

	/**
	 * Starts a server that asks every client for {@link #REQUIREPASS}'s password.
	 * @return the running server; the caller closes it
	 */
	public static RedisTestServer startWithPassword() {
		return RedisTestServer.process()
			.config("requirepass " + REQUIREPASS.password())
			.admin(REQUIREPASS)
			.start();
	}

	/**
	 * Starts a server whose default user is off and whose {@link #LOCKABLE_USER} has the
	 * {@link #aclRules(String) rules} for the prefix {@code lock}.
	 * @return the running server; the caller closes it
	 */
	public static RedisTestServer startWithAclUser() {
		return RedisTestServer.process()
			.config("user default off")
			.config("user " + ADMIN.username() + " on >" + ADMIN.password() + " ~* &* +@all")
			.config("user " + LOCKABLE_USER.username() + " on >" + LOCKABLE_USER.password() + " "
					+ aclRules("lock"))
			.admin(ADMIN)
			.start();
	}

	/**
	 * What the server refused since it started, one line each, from {@code ACL LOG}.
	 * @param server a server from {@link #startWithAclUser()}
	 * @return the refusals, such as {@code lockable: command client|setinfo}
	 */
	public static List<String> aclDenials(RedisTestServer server) {
		return server.commands()
			.aclLog()
			.stream()
			.map(SecuredRedisServers::describe)
			.toList();
	}

	private static String describe(Map<String, Object> entry) {
		return entry.get("username") + ": " + entry.get("reason") + " " + entry.get("object") + " (in "
				+ entry.get("context") + ")";
	}

}
