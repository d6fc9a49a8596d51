package io.github.lockable.docs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import io.github.lockable.docs.MessageSites.Site;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every message Lockable logs at WARN or ERROR or throws to a user has an entry in
 * docs/troubleshooting.md, the page that promises "the lines a user will see".
 * <p>
 * <b>A message site</b> is, in {@code src/main} of the library's modules
 * ({@link MessageSites#MODULES}; not benchmarks, history-check, sample-app), found with the
 * JDK's Java parser:
 * <ul>
 * <li>a WARN or ERROR log call on a {@code Logger} field of the file, whatever its name
 * ({@code logger}, {@code releases}, {@code renewals}): {@code warn(...)}, {@code error(...)}, or a
 * fluent {@code atWarn()}, {@code atError()} or {@code atLevel(...)} whose level names WARN or
 * ERROR, up to its {@code log(...)}, also through a helper that takes the builder; the message
 * is the format string;</li>
 * <li>an exception or error constructed in main code ({@code new ...Exception(...)},
 * {@code new ...Error(...)}, or a class of these sources that extends one) with a string
 * literal in its message, the first argument that has one; the message an exception class
 * gives itself ({@code super("...")}); Spring's {@code Assert.isTrue} and {@code Assert.state}
 * with a message (they throw {@code IllegalArgumentException} and {@code IllegalStateException});
 * not the null guards ({@code Objects.requireNonNull}, {@code Assert.notNull}), whose message
 * only names the parameter the caller passed null to;</li>
 * <li>a problem added to a {@code problems} list, the lists a
 * {@code LockableConfigurationException} and the Redis probe's ERROR are built from;</li>
 * <li>the text a health indicator hands its superclass ({@code super("...")}), which Spring Boot
 * logs at WARN when the check throws.</li>
 * </ul>
 * A site's <b>fixed text</b> is the literal pieces of its message (literals, concatenations,
 * both branches of a condition, a message supplier's lambda, {@code List.of},
 * {@code String.format}, the file's {@code static final String} constants); whatever else it
 * is made of varies, written {@code ...}, as {@code {}} of a format does. Text that a helper
 * method returns is not followed: where a site has no fixed text, it is mapped.
 * <p>
 * <b>Covered</b>: the site's longest fixed piece, whitespace normalized, is in
 * docs/troubleshooting.md, as a quoted line or in prose. Else the site must be in
 * {@link #MAPPED} (its entry paraphrases, or its text is built elsewhere: the heading that
 * covers it) or in {@link #NOT_USER_FACING} (with the reason no user meets it). A mapping or
 * a not-user-facing item that names no site fails too, so that the lists do not rot.
 */
class TroubleshootingCoversMessagesTests {

	/** A fixed piece shorter than this says too little to be found: such a site is mapped. */
	private static final int SHORTEST_PIECE = 12;

	/** Site ({@link Site#id()}; ending in {@code ...}, its start) → the docs' heading that covers it. */
	private static final Map<String, String> MAPPED = mapped();

	/** Site ({@link Site#id()}; ending in {@code ...}, its start) → why no user meets its text. */
	private static final Map<String, String> NOT_USER_FACING = notUserFacing();

	private static Map<String, String> mapped() {
		Map<String, String> mapped = new LinkedHashMap<>();
		String misconfigured = "Startup fails: a declaration or a property is wrong";
		// The texts these log are built elsewhere, in the entry under the heading
		mapped.put("UnknownLockableProperties.java: (no fixed text: warning)", "An unknown property");
		mapped.put("RedisServerProbe.java: (no fixed text: \"{}\")", "What the Redis server allows");
		mapped.put("RedisServerProbe.java: (no fixed text: refused)", "What the Redis server allows");
		mapped.put("ScriptRefusal.java: (no fixed text: \"{}\")", "What the Redis server allows");
		mapped.put("LockLog.java: not run:", "An invalid key");
		mapped.put("LockableMethods.java: (no fixed text: describe(method, userClass) + \": \" + unreachable)",
				misconfigured);
		// Too little fixed text to be found; the entry names the whole problem
		mapped.put("LockableMethods.java: key '", misconfigured);
		mapped.put("MethodLockInvocation.java: Parameter ' ... ' of ...",
				"Startup fails: parameter names are not in the class file");
		mapped.put("LockableMethods.java: ' cannot be resolved:", misconfigured);
		mapped.put("LockableProperties.java: lockable.key-prefix", misconfigured);
		mapped.put("FileLockStoreConfiguration.java: lockable.file.directory:", "The lock directory is unsafe");
		mapped.put("LockDirectory.java: Cannot ... in", "The file store cannot use its directory");
		mapped.put("JdbcFailures.java: JDBC store: ... failed ( ... SQL state", "The store does not answer");
		mapped.put("JdbcFailures.java: JDBC store: ... of ' ... failed:", "The store does not answer");
		mapped.put("RedisCall.java: No connection", "The store does not answer");
		mapped.put("StoredLocks.java: interrupted", "The lockable endpoint answers 501 or 503");
		mapped.put("RedisTimeoutException.java: TIMEOUT", "The store does not answer");
		return mapped;
	}

	private static Map<String, String> notUserFacing() {
		Map<String, String> internal = new LinkedHashMap<>();
		String spiGuard = "a guard of the store SPI: Lockable checks every key against the key rule before a store "
				+ "sees it, and stores make the tokens, so only a store's own code trips it";
		String propertyFirst = "a guard behind a property: the property's own check fails the start first";
		String cannotHappen = "cannot happen: every Java platform has the algorithm";
		String malformed = "caught by the file store, which replaces the file and logs \"Replaced the unreadable lock "
				+ "file\" (covered)";
		internal.put("LockConflictException.java: A conflict is not reported for policy",
				"Lockable builds conflicts only for CONFLICT, LOCKED and TOO_MANY_REQUESTS, after resolving DEFAULT");
		internal.put("LockDefaults.java: The default conflict policy cannot be DEFAULT", propertyFirst);
		internal.put("DefaultLockTemplate.java: The default conflict policy cannot be DEFAULT", propertyFirst);
		internal.put("LockManager.java: ttlWarningRatio must be in ...", propertyFirst);
		internal.put("LockKeys.java: max key length must be at least 1 ...", propertyFirst);
		internal.put("LockKeys.java: key prefix", propertyFirst);
		internal.put("LockKeys.java: key", "callers check the key with problem(...) first and throw "
				+ "InvalidLockKeyException (covered) instead");
		internal.put("LockableMethods.java: No @Lockable on", "internal: asked only for methods found with @Lockable");
		internal.put("DefaultHeldLock.java: One handle per key is required", "internal assertion of the lock's own state");
		internal.put("DefaultLockTemplate.java: LockTemplate has no method",
				"internal: looks up LockTemplate's own methods when the class loads");
		internal.put("LockLease.java: fencingToken must not be negative ...", spiGuard);
		internal.put("LockRequest.java: key must not ...", spiGuard);
		internal.put("LockFileName.java: A lock key ...", spiGuard);
		internal.put("LockScript.java: SHA-1 is required ...", cannotHappen);
		internal.put("LockFileName.java: SHA-256 is required ...", cannotHappen);
		internal.put("RedisCall.java: No script to send", "internal assertion: every script call names its script");
		internal.put("FencingCounters.java: Redis Cluster slots have no tag ...",
				"a table computed the same on every JVM, for a tag length that covers every slot: it fails "
						+ "always or never, and the Cluster tests build it");
		internal.put("RedisSubscriber.java: The Redis pub/sub connection closed while opening",
				"logged at DEBUG only; waiters poll until the next wait opens the connection again");
		internal.put("LockMetadata.java: ...", malformed);
		internal.put("FileLockStore.java: limit must be at least 1 ...", "a guard of the store SPI: the endpoint lists with "
				+ "a fixed limit");
		internal.put("JdbcLockStore.java: limit must be at least 1 ...", "as for FileLockStore");
		internal.put("JdbcLockStoreSchema.java: Not a table name:", "the store's constructor checks the table name first");
		internal.put("JdbcLockStoreSchema.java: creates no", "checks the schema scripts inside the jar itself");
		return internal;
	}

	@Test
	void everyMessageSiteHasATroubleshootingEntry() {
		Path root = DocsQuotes.root();
		List<String> page = DocsQuotes.read(root.resolve("docs/troubleshooting.md"));
		String text = MessageText.normalize(String.join(" ", page));
		Set<String> headings = new TreeSet<>();
		page.stream().filter((line) -> line.startsWith("### ")).forEach((line) -> headings.add(line.substring(4)));
		List<Site> sites = MessageSites.find(root);
		assertThat(sites).as("message sites found").hasSizeGreaterThan(50);
		Set<String> usedMappings = new TreeSet<>();
		Set<String> usedInternal = new TreeSet<>();
		List<String> uncovered = new ArrayList<>();
		for (Site site : sites) {
			String mapping = entry(MAPPED, site);
			String internal = entry(NOT_USER_FACING, site);
			if (mapping != null) {
				usedMappings.add(mapping);
			}
			else if (internal != null) {
				usedInternal.add(internal);
			}
			else if (site.longestPiece().length() < SHORTEST_PIECE || !text.contains(site.longestPiece())) {
				uncovered.add(site.path() + ":" + site.line() + " " + site.kind() + " \"" + site.text() + "\"");
			}
		}
		List<String> wrong = new ArrayList<>();
		MAPPED.forEach((site, heading) -> {
			if (!headings.contains(heading)) {
				wrong.add("MAPPED names a heading docs/troubleshooting.md does not have: " + site + " -> " + heading);
			}
		});
		stale(MAPPED.keySet(), usedMappings, "MAPPED", wrong);
		stale(NOT_USER_FACING.keySet(), usedInternal, "NOT_USER_FACING", wrong);
		assertThat(uncovered).as("""
				message sites whose text docs/troubleshooting.md does not have (%d of %d sites): add an entry that \
				says what it means and what to do (the text in a quoted line or in backticks), or, where the entry \
				paraphrases, a line in %s.MAPPED (site -> heading), or, for a text no user meets, a line in \
				NOT_USER_FACING with the reason""", uncovered.size(), sites.size(),
				getClass().getSimpleName())
			.isEmpty();
		assertThat(wrong).as("mappings of %s", getClass().getSimpleName()).isEmpty();
	}

	/** The key of a list that names this site: its id, or the start of its id followed by {@code ...}. */
	private static String entry(Map<String, String> list, Site site) {
		return list.keySet()
			.stream()
			.filter((key) -> key.endsWith("...") ? site.id().startsWith(key.substring(0, key.length() - 3).strip())
					: site.id().equals(key))
			.findFirst()
			.orElse(null);
	}

	private static void stale(Set<String> keys, Set<String> used, String list, List<String> wrong) {
		for (String key : keys) {
			if (!used.contains(key)) {
				wrong.add(list + " names a site that is not in the sources any more: " + key);
			}
		}
	}

}
