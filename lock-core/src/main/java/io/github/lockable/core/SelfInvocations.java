package io.github.lockable.core;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.asm.SpringAsmInfo;
import org.springframework.asm.Type;
import org.springframework.util.ClassUtils;

/**
 * Warns about calls from a bean's own methods to its {@code @Lockable} methods on
 * {@code this}: such a call never passes the proxy, so it runs unlocked. Reads the
 * bytecode of the bean class and of its superclasses once, at startup.
 * <p>
 * A call counts when its owner is the class, a superclass or an interface of it, its name
 * and descriptor are those of a {@code @Lockable} method, and its receiver is {@code this}:
 * local variable 0 of an instance method, followed through a simulation of the operand
 * stack, so that calls on other instances of the same class (a field, a parameter, an
 * injected self-reference) do not count. A bound method reference ({@code this::locked})
 * counts too. Calls in a lambda's body are reported under the method that declares the
 * lambda; calls from inner classes and Kotlin coroutine state machines are not seen.
 * Bridge methods and a {@code super} call of the method being overridden are skipped.
 */
final class SelfInvocations {

	// The log category of the package this class came from, which operators' logging configuration names
	private static final Logger logger = LoggerFactory.getLogger("io.github.lockable.aop.SelfInvocations");

	private SelfInvocations() {
	}

	/**
	 * Logs one WARN for every method of the class that calls one of its {@code @Lockable}
	 * methods on {@code this}.
	 * @param beanClass the bean's user class
	 * @param lockableMethods its {@code @Lockable} methods
	 */
	static void warnAbout(Class<?> beanClass, Collection<Method> lockableMethods) {
		find(beanClass, lockableMethods).forEach(logger::warn);
	}

	/**
	 * The warnings for the class: one per caller and callee.
	 * @param beanClass the bean's user class
	 * @param lockableMethods its {@code @Lockable} methods
	 * @return the warnings, in the order of the class's methods
	 */
	static Set<String> find(Class<?> beanClass, Collection<Method> lockableMethods) {
		Map<String, Method> lockable = new HashMap<>();
		for (Method method : lockableMethods) {
			if (!Modifier.isStatic(method.getModifiers()) && !Modifier.isPrivate(method.getModifiers())) {
				lockable.put(method.getName() + Type.getMethodDescriptor(method), method);
			}
		}
		if (lockable.isEmpty()) {
			return Set.of();
		}
		Set<String> owners = new HashSet<>();
		List<Class<?>> classes = new ArrayList<>();
		for (Class<?> type = beanClass; type != null && type != Object.class; type = type.getSuperclass()) {
			owners.add(Type.getInternalName(type));
			ClassUtils.getAllInterfacesForClassAsSet(type).forEach((face) -> owners.add(Type.getInternalName(face)));
			if (!type.getName().startsWith("java.")) {
				classes.add(type);
			}
		}
		Set<String> warnings = new LinkedHashSet<>();
		for (Class<?> type : classes) {
			read(type, new Calls(type, owners, lockable, warnings));
		}
		return warnings;
	}

	private static void read(Class<?> type, ClassVisitor visitor) {
		ClassLoader classLoader = type.getClassLoader();
		String resource = ClassUtils.convertClassNameToResourcePath(type.getName()) + ClassUtils.CLASS_FILE_SUFFIX;
		try (InputStream in = (classLoader != null) ? classLoader.getResourceAsStream(resource) : null) {
			if (in == null) {
				logger.debug("Not checked for calls of its @Lockable methods on this: no bytecode found for {}",
						type.getName());
				return;
			}
			new ClassReader(in).accept(visitor, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("Not checked for calls of its @Lockable methods on this: the bytecode of {} cannot be read",
					type.getName(), ex);
		}
	}

	private static String describe(Method method) {
		return ClassUtils.getShortName(method.getDeclaringClass()) + "." + method.getName()
				+ Arrays.stream(method.getParameterTypes())
					.map(Class::getSimpleName)
					.collect(Collectors.joining(", ", "(", ")"));
	}

	private static String describe(Class<?> type, String name, String descriptor) {
		String caller = name;
		if (name.startsWith("lambda$") && name.indexOf('$', 7) > 7) {
			caller = name.substring(7, name.indexOf('$', 7));
		}
		else if (name.contains("$lambda")) {
			caller = name.substring(0, name.indexOf("$lambda"));
		}
		if (caller.equals("<init>")) {
			return "the constructor of " + ClassUtils.getShortName(type);
		}
		if (!caller.equals(name)) {
			return ClassUtils.getShortName(type) + "." + caller + " (in a lambda)";
		}
		return ClassUtils.getShortName(type) + "." + name + Arrays.stream(Type.getArgumentTypes(descriptor))
			.map((argument) -> ClassUtils.getShortName(argument.getClassName()))
			.map((argument) -> argument.substring(argument.lastIndexOf('.') + 1))
			.collect(Collectors.joining(", ", "(", ")"));
	}

	/** Finds the calls in one class's methods. */
	private static final class Calls extends ClassVisitor {

		private final Class<?> type;

		private final Set<String> owners;

		private final Map<String, Method> lockable;

		private final Set<String> warnings;

		Calls(Class<?> type, Set<String> owners, Map<String, Method> lockable, Set<String> warnings) {
			super(SpringAsmInfo.ASM_VERSION);
			this.type = type;
			this.owners = owners;
			this.lockable = lockable;
			this.warnings = warnings;
		}

		@Override
		public @Nullable MethodVisitor visitMethod(int access, String name, String descriptor,
				@Nullable String signature, String @Nullable [] exceptions) {
			if ((access & (Opcodes.ACC_STATIC | Opcodes.ACC_BRIDGE | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
				return null;
			}
			return new ThisCallTracker() {

				@Override
				void calledOnThis(int opcode, String owner, String calleeName, String calleeDescriptor) {
					String callee = calleeName + calleeDescriptor;
					Method method = Calls.this.lockable.get(callee);
					if (method == null || !Calls.this.owners.contains(owner)
							|| opcode == Opcodes.INVOKESPECIAL && callee.equals(name + descriptor)) {
						return;
					}
					String caller = describe(Calls.this.type, name, descriptor);
					Calls.this.warnings.add(caller + " calls the @Lockable method " + describe(method)
							+ " on this, so that call does not pass the proxy and runs without the lock. Call it "
							+ "through the bean (inject " + ClassUtils.getShortName(method.getDeclaringClass())
							+ " lazily, with @Lazy or an ObjectProvider), move " + method.getName()
							+ " to another bean, or take the lock with LockTemplate");
				}

			};
		}

	}

}
