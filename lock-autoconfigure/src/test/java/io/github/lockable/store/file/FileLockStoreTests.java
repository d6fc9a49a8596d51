package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.test.Stages;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockHandle;
import io.github.lockable.store.LockLease;
import io.github.lockable.store.LockRequest;
import io.github.lockable.store.LockStore;
import io.github.lockable.test.LockStoreContract;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.ReleaseResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The store contract, plus what is particular to lock files: their content, permissions,
 * what is left in the directory, and the odd states of a directory.
 */
class FileLockStoreTests extends LockStoreContract {

	/** The file store polls: its waiters may wake without a release. */
	@Override
	protected boolean wakesOnlyOnRelease() {
		return false;
	}

	@TempDir
	Path temp;

	private Path directory;

	private FileLockStore store;

	@Override
	protected LockStore createStore() {
		this.directory = this.temp.resolve("locks");
		this.store = new FileLockStore(this.directory, "1.4.2");
		return this.store;
	}

	@AfterEach
	void closeStore() {
		this.store.close();
	}

	@Test
	void nameIsFile() {
		assertThat(this.store.name()).isEqualTo("file");
	}

	@Test
	void lockFileHoldsTheHolderMetadataAndNothingElse() {
		Instant before = Instant.now().minusMillis(1);
		LockHandle handle = acquired(key("report"), LONG_TTL).handle();
		JsonNode lock = LockFileFixtures.json(this.directory, key("report"));
		List<String> fields = new ArrayList<>();
		lock.fieldNames().forEachRemaining(fields::add);
		assertThat(fields).containsExactly("format", "job", "pid", "host", "startedAt", "expiresAt", "version",
				"bootId", "pidNamespace", "processStartTicks", "token", "fencingToken");
		assertThat(lock.get("format").asInt()).isEqualTo(1);
		assertThat(lock.get("fencingToken").asLong()).isEqualTo(handle.lease().fencingToken());
		assertThat(lock.get("job").asText()).isEqualTo(key("report"));
		assertThat(lock.get("pid").asLong()).isEqualTo(ProcessHandle.current().pid());
		assertThat(lock.get("host").asText()).isEqualTo(ProcessIdentity.current().host()).isNotBlank();
		Instant startedAt = Instant.parse(lock.get("startedAt").asText());
		assertThat(startedAt).isBetween(before, Instant.now()).isEqualTo(handle.lease().acquiredAt());
		assertThat(Instant.parse(lock.get("expiresAt").asText())).isEqualTo(startedAt.plus(LONG_TTL));
		assertThat(lock.get("version").asText()).isEqualTo("1.4.2");
		assertThat(lock.get("token").asText()).isEqualTo(handle.lease().token());
		Stages.join(handle.release());
	}

	@Test
	void lockFileOfAStoreWithoutVersionSaysNull() {
		FileLockStore unversioned = new FileLockStore(this.directory);
		LockHandle handle = ((AcquireResult.Acquired) Stages.join(unversioned.acquire(new LockRequest(key("v"), LONG_TTL))))
			.handle();
		assertThat(LockFileFixtures.json(this.directory, key("v")).get("version").isNull()).isTrue();
		Stages.join(handle.release());
	}

	@Test
	void tokenStaysOutOfEveryDescription() {
		LockHandle handle = acquired(key("secret-file"), LONG_TTL).handle();
		String token = handle.lease().token();
		LockMetadata metadata = LockFileFixtures.metadata(key("x"), ProcessIdentity.current(), Instant.now(), LONG_TTL);
		assertThat(metadata.toString()).doesNotContain(metadata.token()).contains(key("x"));
		assertThat(this.store.toString()).doesNotContain(token);
		try (Stream<Path> files = Files.list(this.directory)) {
			assertThat(files).map(Path::toString).noneMatch((name) -> name.contains(token));
		}
		catch (IOException ex) {
			throw new AssertionError(ex);
		}
		Stages.join(handle.release());
	}

	@Test
	void heldLockReportsItsRemainingTtlAndAge() {
		MutableClock clock = new MutableClock(Instant.parse("2026-07-27T23:00:00Z"));
		FileLockStore store = new FileLockStore(this.directory, null, FileLockStore.DEFAULT_TIMEOUT, clock, true);
		Stages.join(store.acquire(new LockRequest(key("timed"), Duration.ofSeconds(10))));
		clock.advance(Duration.ofMillis(3250));
		AcquireResult.Held held = (AcquireResult.Held) Stages.join(store.acquire(new LockRequest(key("timed"), LONG_TTL)));
		assertThat(held.remainingTtl()).isEqualTo(Duration.ofMillis(6750));
		assertThat(held.age()).isEqualTo(Duration.ofMillis(3250));
	}

	@Test
	void extendMovesTheExpiryInTheFileButNotTheStart() {
		MutableClock clock = new MutableClock(Instant.parse("2026-07-27T23:00:00Z"));
		FileLockStore store = new FileLockStore(this.directory, null, FileLockStore.DEFAULT_TIMEOUT, clock, true);
		LockHandle handle = ((AcquireResult.Acquired) Stages.join(store
			.acquire(new LockRequest(key("ext"), Duration.ofSeconds(10))))).handle();
		clock.advance(Duration.ofSeconds(4));
		assertThat(Stages.join(handle.extend(Duration.ofSeconds(20)))).isTrue();
		JsonNode lock = LockFileFixtures.json(this.directory, key("ext"));
		assertThat(lock.get("startedAt").asText()).isEqualTo("2026-07-27T23:00:00Z");
		assertThat(lock.get("expiresAt").asText()).isEqualTo("2026-07-27T23:00:24Z");
		assertThat(lock.get("token").asText()).isEqualTo(handle.lease().token());
		assertThat(Stages.join(handle.release())).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void directoryIsCreatedOwnerOnlyAndFilesAreOwnerOnly() throws IOException {
		assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"),
				"the file system has no POSIX permissions");
		Path nested = this.temp.resolve("a/b/locks");
		FileLockStore store = new FileLockStore(nested);
		LockHandle handle = ((AcquireResult.Acquired) Stages.join(store.acquire(new LockRequest("perm", LONG_TTL)))).handle();
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(nested))).isEqualTo("rwx------");
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(nested.resolve("perm.lock"))))
			.isEqualTo("rw-------");
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(nested.resolve(LockGuard.FILE_NAME))))
			.isEqualTo("rw-------");
		Stages.join(handle.extend(LONG_TTL));
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(nested.resolve("perm.lock"))))
			.as("after the atomic replace of extend")
			.isEqualTo("rw-------");
		Stages.join(handle.release());
	}

	@Test
	void releaseLeavesOnlyTheGuardAndFencingCounterFiles() throws IOException {
		for (int i = 0; i < 20; i++) {
			LockHandle handle = acquired(key("clean-" + i), LONG_TTL).handle();
			Stages.join(handle.extend(LONG_TTL));
			held(key("clean-" + i), LONG_TTL);
			Stages.join(handle.release());
		}
		try (Stream<Path> files = Files.list(this.directory)) {
			assertThat(files).map((file) -> file.getFileName().toString())
				.containsExactlyInAnyOrder(LockGuard.FILE_NAME, LockGuard.COUNTER_FILE_NAME);
		}
	}

	@Test
	void fencingCounterIsOneOwnerOnlyFileThatAnotherStoreOnTheDirectoryContinues() throws IOException {
		long first = acquired(key("fence-a"), LONG_TTL).handle().lease().fencingToken();
		long second = acquired(key("fence-b"), LONG_TTL).handle().lease().fencingToken();
		assertThat(second).isGreaterThan(first);
		Path counter = this.directory.resolve(LockGuard.COUNTER_FILE_NAME);
		assertThat(Files.readString(counter).strip()).isEqualTo(Long.toString(second));
		if (DirectorySafety.isPosix(counter)) {
			assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(counter))).isEqualTo("rw-------");
		}
		FileLockStore other = new FileLockStore(this.directory);
		try {
			LockHandle third = ((AcquireResult.Acquired) Stages.join(other.acquire(new LockRequest(key("fence-c"), LONG_TTL))))
				.handle();
			assertThat(third.lease().fencingToken()).isGreaterThan(second);
		}
		finally {
			other.close();
		}
	}

	@Test
	void deletedFencingCounterStartsAgainAboveEveryEarlierToken() throws IOException {
		LockHandle first = acquired(key("fence-deleted"), LONG_TTL).handle();
		Stages.join(first.release());
		Files.delete(this.directory.resolve(LockGuard.COUNTER_FILE_NAME));
		// Whatever removes the counter (a reboot that clears /run/lock) takes longer than the clock's millisecond.
		await().until(() -> System.currentTimeMillis() * 1000 > first.lease().fencingToken());
		LockHandle second = acquired(key("fence-deleted"), LONG_TTL).handle();
		assertThat(second.lease().fencingToken()).isGreaterThan(first.lease().fencingToken());
		Stages.join(second.release());
	}

	@Test
	void damagedFencingCounterFailsTheAcquireRatherThanStartAgain() throws IOException {
		Stages.join(acquired(key("fence-first"), LONG_TTL).handle().release());
		Files.writeString(this.directory.resolve(LockGuard.COUNTER_FILE_NAME), "not a number");
		AcquireResult result = Stages.join(this.store.acquire(new LockRequest(key("fence-damaged"), LONG_TTL)));
		assertThat(result).isInstanceOf(AcquireResult.Failed.class);
		assertThat(((AcquireResult.Failed) result).cause()).hasMessageContaining("is not a number");
		assertThat(LockFileFixtures.lockFile(this.directory, key("fence-damaged"))).doesNotExist();
	}

	@Test
	void storesThatCreateTheSameDirectoryAtOnceAllSucceed() throws Exception {
		int stores = 6;
		ExecutorService pool = Executors.newFixedThreadPool(stores);
		try {
			for (int round = 0; round < 30; round++) {
				Path fresh = this.temp.resolve("fresh-" + round).resolve("locks");
				CyclicBarrier barrier = new CyclicBarrier(stores);
				List<Future<AcquireResult>> results = new ArrayList<>();
				for (int i = 0; i < stores; i++) {
					String name = "first-use-" + i;
					results.add(pool.submit(() -> {
						barrier.await(10, TimeUnit.SECONDS);
						return Stages.join(new FileLockStore(fresh).acquire(new LockRequest(name, LONG_TTL)));
					}));
				}
				for (Future<AcquireResult> result : results) {
					assertThat(result.get(30, TimeUnit.SECONDS)).isInstanceOf(AcquireResult.Acquired.class);
				}
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void directoryDeletedWhileInUseIsCreatedAgain() throws IOException {
		Stages.join(acquired(key("gone"), LONG_TTL).handle().release());
		try (Stream<Path> files = Files.list(this.directory)) {
			for (Path file : files.toList()) {
				Files.delete(file);
			}
		}
		Files.delete(this.directory);
		LockHandle handle = acquired(key("gone"), LONG_TTL).handle();
		held(key("gone"), LONG_TTL);
		assertThat(Files.exists(this.directory.resolve(LockGuard.FILE_NAME))).isTrue();
		assertThat(Stages.join(handle.release())).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void guardFileReplacedBehindTheStoresBackIsOpenedAgain() throws IOException {
		Stages.join(acquired(key("guard"), LONG_TTL).handle().release());
		Files.delete(this.directory.resolve(LockGuard.FILE_NAME));
		Files.createFile(this.directory.resolve(LockGuard.FILE_NAME));
		LockHandle handle = acquired(key("guard"), LONG_TTL).handle();
		held(key("guard"), LONG_TTL);
		assertThat(Stages.join(handle.release())).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void guardHeldTooLongIsATimeoutFailureNeverHeld() throws IOException {
		FileLockStore store = new FileLockStore(this.directory, null,
				Duration.ofMillis(200), Clock.systemUTC(), true);
		LockHandle handle = ((AcquireResult.Acquired) Stages.join(store.acquire(new LockRequest(key("stuck"), LONG_TTL)))).handle();
		// Inside one JVM the whole-file lock makes the store's byte lock overlap; from another
		// process it would be a stopped holder of the guard. Either way the guard is taken.
		try (FileChannel channel = FileChannel.open(this.directory.resolve(LockGuard.FILE_NAME),
				StandardOpenOption.WRITE); FileLock ignored = channel.lock()) {
			AcquireResult result = Stages.join(store.acquire(new LockRequest(key("stuck"), LONG_TTL)));
			assertThat(result).isInstanceOf(AcquireResult.Failed.class);
			assertThat(((AcquireResult.Failed) result).cause().getCode()).isEqualTo("TIMEOUT");
			assertThatExceptionOfType(LockStoreException.class).isThrownBy(() -> Stages.join(store.release(handle.lease())))
				.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo("TIMEOUT"));
		}
		assertThat(Stages.join(store.release(handle.lease()))).isEqualTo(ReleaseResult.RELEASED);
	}

	@Test
	void releaseOfALeaseForAnotherKeyFileDeletesNothing() {
		LockHandle handle = acquired(key("mine"), LONG_TTL).handle();
		LockLease other = new LockLease(key("other"), handle.lease().token(), 1, Instant.now(), LONG_TTL);
		assertThat(Stages.join(this.store.release(other))).isEqualTo(ReleaseResult.NOT_OWNER);
		held(key("mine"), LONG_TTL);
		Stages.join(handle.release());
	}

}
