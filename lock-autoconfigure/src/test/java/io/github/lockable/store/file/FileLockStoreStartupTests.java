package io.github.lockable.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.autoconfigure.LockableAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code lockable.store=file} starts only with a lock directory that is named and safe;
 * anything else fails startup saying which path and why.
 */
class FileLockStoreStartupTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockableAutoConfiguration.class))
		.withPropertyValues("lockable.store=file");

	@TempDir
	Path temp;

	@Test
	void directoryMustBeSetAsNoDefaultIsSharedByEveryProcess() {
		this.runner.run((context) -> assertThat(context).hasFailed()
			.getFailure()
			.rootCause()
			.isInstanceOf(LockableConfigurationException.class)
			.hasMessageContaining("lockable.file.directory must be set with lockable.store=file")
			.hasMessageContaining("PrivateTmp="));
	}

	@Test
	void directoryWritableByOthersFailsStartupNamingItAndWhy() throws IOException {
		assumeTrue(DirectorySafety.isPosix(this.temp), "the file system has no POSIX permissions");
		Path shared = Files.createDirectory(this.temp.resolve("shared"));
		Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
		this.runner.withPropertyValues("lockable.file.directory=" + shared)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(LockableConfigurationException.class)
				.hasMessageContaining("lockable.file.directory: Lock directory " + shared + " is unsafe")
				.hasMessageContaining(shared + " is writable by its group or by others (rwxrwxrwx)"));
	}

	@Test
	void directoryUnderTheTemporaryDirectoryStillWorksWhenNamed() {
		Path locks = this.temp.resolve("locks");
		this.runner.withPropertyValues("lockable.file.directory=" + locks)
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(FileLockStore.class));
	}

}
