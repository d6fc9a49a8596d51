package io.github.lockable;

import java.io.File;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.lockable.autoconfigure.LockableProperties;
import io.github.lockable.core.LockableCore;
import io.github.lockable.store.AcquireResult;
import io.github.lockable.store.LockStoreException;
import io.github.lockable.store.file.FileLockStore;
import io.github.lockable.store.jdbc.JdbcLockStore;
import io.github.lockable.store.redis.RedisLockStore;
import io.github.lockable.test.LockableTestKit;

import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JSpecify annotations that Kotlin and null checkers read from Lockable's classes, read
 * back the same way: from the compiled classes, by reflection.
 */
class NullnessAnnotationsTests {

	@Test
	void everyPackageOfTheLibraryIsNullMarked() throws Exception {
		Set<String> packages = new TreeSet<>();
		for (String className : libraryClassNames()) {
			packages.add(className.substring(0, className.lastIndexOf('.')));
		}
		// The scan must have found the library, not an empty directory.
		assertThat(packages).contains("io.github.lockable", "io.github.lockable.core",
				"io.github.lockable.store", "io.github.lockable.store.redis", "io.github.lockable.store.file",
				"io.github.lockable.store.jdbc", "io.github.lockable.store.memory", "io.github.lockable.autoconfigure", "io.github.lockable.web",
				"io.github.lockable.test");
		List<String> unmarked = new ArrayList<>();
		for (String name : packages) {
			if (!isNullMarked(name)) {
				unmarked.add(name);
			}
		}
		assertThat(unmarked).as("packages without @NullMarked").isEmpty();
	}

	private boolean isNullMarked(String packageName) {
		try {
			return Class.forName(packageName + ".package-info", false, getClass().getClassLoader())
				.isAnnotationPresent(NullMarked.class);
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
	}

	@Test
	void noSpringNullnessAnnotationIsLeft() throws Exception {
		List<String> found = new ArrayList<>();
		for (String className : libraryClassNames()) {
			if (writtenForTheOtherBootLine(className)) {
				continue;
			}
			Class<?> type = Class.forName(className, false, getClass().getClassLoader());
			List<AccessibleObject> members = new ArrayList<>();
			members.addAll(List.of(type.getDeclaredFields()));
			members.addAll(List.of(type.getDeclaredMethods()));
			members.addAll(List.of(type.getDeclaredConstructors()));
			for (AccessibleObject member : members) {
				if (hasSpringNullness(member)) {
					found.add(member.toString());
				}
				if (member instanceof Executable executable) {
					for (Annotation[] parameter : executable.getParameterAnnotations()) {
						if (Stream.of(parameter).anyMatch(NullnessAnnotationsTests::isSpringNullness)) {
							found.add("a parameter of " + executable);
						}
					}
				}
			}
		}
		assertThat(found).as("members still annotated with org.springframework.lang").isEmpty();
	}

	// The health configuration of the Boot line not under test names types that are absent here
	private static boolean writtenForTheOtherBootLine(String className) {
		String simpleName = className.substring(className.lastIndexOf('.') + 1);
		if (!simpleName.startsWith("Boot3") && !simpleName.startsWith("Boot4")) {
			return false;
		}
		boolean boot4 = ClassUtils.isPresent("org.springframework.boot.health.contributor.HealthIndicator", null)
				&& !ClassUtils.isPresent("org.springframework.boot.actuate.health.HealthIndicator", null);
		return simpleName.startsWith(boot4 ? "Boot3" : "Boot4");
	}

	@Test
	void nullableWhereTheApiReturnsOrTakesNull() throws Exception {
		Method argument = LockInvocation.class.getMethod("argument", String.class, Class.class);
		assertThat(isNullable(argument.getAnnotatedReturnType())).as("LockInvocation.argument").isTrue();
		AnnotatedType arguments = LockInvocation.class.getMethod("arguments").getAnnotatedReturnType();
		assertThat(isNullable(((AnnotatedParameterizedType) arguments).getAnnotatedActualTypeArguments()[0]))
			.as("elements of LockInvocation.arguments")
			.isTrue();

		Method execute = LockTemplate.class.getMethod("execute", String.class, Duration.class, Duration.class,
				ConflictPolicy.class, Supplier.class);
		assertThat(isNullable(execute.getAnnotatedReturnType())).as("LockTemplate.execute with a policy").isTrue();
		assertThat(isNullable(execute.getTypeParameters()[0].getAnnotatedBounds()[0]))
			.as("an action may return null")
			.isTrue();

		Method problem = LockableCore.class.getMethod("keyProblem", String.class);
		assertThat(isNullable(problem.getAnnotatedReturnType())).as("LockableCore.keyProblem").isTrue();
		assertThat(isNullable(problem.getAnnotatedParameterTypes()[0])).as("LockableCore.keyProblem's key").isTrue();

		assertThat(isNullable(LockStoreException.class.getConstructor(String.class, Throwable.class)
			.getAnnotatedParameterTypes()[1])).as("LockStoreException's cause").isTrue();
		assertThat(isNullable(FileLockStore.class.getConstructor(Path.class, String.class)
			.getAnnotatedParameterTypes()[1])).as("FileLockStore's version").isTrue();
		assertThat(isNullable(LockableProperties.File.class.getMethod("getDirectory").getAnnotatedReturnType()))
			.as("lockable.file.directory")
			.isTrue();

		assertThat(nullableComponents(AcquireResult.Held.class)).containsExactly("remainingTtl", "age");
		assertThat(nullableComponents(Class.forName("io.github.lockable.core.LockableMethodDescriptor").asSubclass(Record.class)))
			.containsExactly("key", "resolver");
	}

	@Test
	void notNullableWhereTheApiPromisesAValue() throws Exception {
		assertThat(isNullable(LockContext.class.getMethod("current").getAnnotatedReturnType())).isFalse();
		assertThat(isNullable(LockTemplate.class.getMethod("tryLock", String.class, Duration.class)
			.getAnnotatedReturnType())).isFalse();
		assertThat(isNullable(LockKeyResolver.class.getMethod("resolve", LockInvocation.class)
			.getAnnotatedReturnType())).isFalse();
		assertThat(isNullable(LockInvocation.class.getMethod("target").getAnnotatedReturnType())).isFalse();
		Method execute = LockTemplate.class.getMethod("execute", String.class, Duration.class, Duration.class,
				Supplier.class);
		assertThat(isNullable(execute.getAnnotatedReturnType()))
			.as("without a policy the result is the action's, null only if the action's is")
			.isFalse();
		Field ttl = LockableProperties.class.getDeclaredField("defaultTtl");
		assertThat(isNullable(ttl.getAnnotatedType())).isFalse();
	}

	private static List<String> nullableComponents(Class<? extends Record> type) {
		return Stream.of(type.getRecordComponents())
			.filter((component) -> isNullable(component.getAnnotatedType()))
			.map(RecordComponent::getName)
			.toList();
	}

	private static boolean isNullable(AnnotatedType type) {
		return type.isAnnotationPresent(Nullable.class);
	}

	private static boolean hasSpringNullness(AnnotatedElement element) {
		return Stream.of(element.getDeclaredAnnotations()).anyMatch(NullnessAnnotationsTests::isSpringNullness);
	}

	private static boolean isSpringNullness(Annotation annotation) {
		return annotation.annotationType().getPackageName().equals("org.springframework.lang");
	}

	/**
	 * The classes of the library itself: those next to {@link Lockable}, in its class
	 * directory or jar, not the tests'.
	 */
	/** The classes of every module of the library: core, the stores, the auto-configuration, the test kit. */
	private static List<String> libraryClassNames() throws IOException, URISyntaxException {
		List<String> entries = new ArrayList<>();
		for (Class<?> module : List.of(Lockable.class, RedisLockStore.class, FileLockStore.class, JdbcLockStore.class,
				LockableProperties.class, LockableTestKit.class)) {
			addEntries(Path.of(module.getProtectionDomain().getCodeSource().getLocation().toURI()), entries);
		}
		return entries.stream()
			.filter((entry) -> entry.startsWith("io/github/lockable/") && entry.endsWith(".class")
					&& !entry.endsWith("package-info.class"))
			.map((entry) -> entry.substring(0, entry.length() - ".class".length()).replace('/', '.'))
			.sorted()
			.toList();
	}

	private static void addEntries(Path location, List<String> entries) throws IOException {
		if (Files.isDirectory(location)) {
			try (Stream<Path> files = Files.walk(location)) {
				files.filter(Files::isRegularFile)
					.map((file) -> location.relativize(file).toString().replace(File.separatorChar, '/'))
					.forEach(entries::add);
			}
		}
		else {
			try (JarFile jar = new JarFile(location.toFile())) {
				jar.stream().map(JarEntry::getName).forEach(entries::add);
			}
		}
	}

}
