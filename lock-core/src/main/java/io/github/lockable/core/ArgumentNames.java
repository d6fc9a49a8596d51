package io.github.lockable.core;

import java.io.IOException;
import java.io.InputStream;

import io.github.lockable.LockInvocation;
import io.github.lockable.LockKeyResolver;

import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.SpringAsmInfo;
import org.springframework.asm.Type;
import org.springframework.util.ClassUtils;

/**
 * Which resolvers read arguments by name, learnt from their class files at startup, so that
 * a method compiled without parameter names fails the start instead of its first call.
 * A resolver reads by name when its class calls {@link LockInvocation#argument}; for a
 * lambda, the class that declares it (any of its lambdas, since a lambda's own code cannot
 * be told apart). A resolver that delegates to another class is not seen: its call still
 * fails with the same fix.
 */
final class ArgumentNames {

	/** How to compile with parameter names, for the startup report and the call's failure. */
	static final String COMPILE_WITH_PARAMETERS = "compile with -parameters: with Maven, inherit "
			+ "spring-boot-starter-parent, which sets it, or, without the parent, set <parameters>true</parameters> "
			+ "in maven-compiler-plugin's <configuration>; with Gradle, apply the Spring Boot plugin, which sets it, "
			+ "or add options.compilerArgs << '-parameters' to tasks.withType(JavaCompile)";

	private static final String OWNER = Type.getInternalName(LockInvocation.class);

	private static final String DESCRIPTOR = "(Ljava/lang/String;Ljava/lang/Class;)Ljava/lang/Object;";

	private static final ClassValue<Boolean> READS_BY_NAME = new ClassValue<>() {
		@Override
		protected Boolean computeValue(Class<?> type) {
			return callsArgument(type);
		}
	};

	private ArgumentNames() {
	}

	/**
	 * Whether the resolver's class file calls {@code LockInvocation.argument(name, type)}.
	 * @param resolver the resolver bean
	 * @return {@code false} also when its class file cannot be read
	 */
	static boolean readByName(LockKeyResolver resolver) {
		return READS_BY_NAME.get(ClassUtils.getUserClass(resolver));
	}

	private static boolean callsArgument(Class<?> type) {
		String name = type.getName();
		int lambda = name.indexOf("$$Lambda");
		String declaring = (lambda > 0) ? name.substring(0, lambda) : name;
		ClassLoader loader = (type.getClassLoader() != null) ? type.getClassLoader()
				: ClassUtils.getDefaultClassLoader();
		if (loader == null) {
			return false;
		}
		try (InputStream bytes = loader.getResourceAsStream(ClassUtils.convertClassNameToResourcePath(declaring)
				+ ClassUtils.CLASS_FILE_SUFFIX)) {
			if (bytes == null) {
				return false;
			}
			Finder finder = new Finder();
			new ClassReader(bytes).accept(finder, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
			return finder.found;
		}
		catch (IOException | RuntimeException ex) {
			// An unreadable class file: leave the check to the call, which says the same fix.
			return false;
		}
	}

	private static final class Finder extends ClassVisitor {

		private boolean found;

		Finder() {
			super(SpringAsmInfo.ASM_VERSION);
		}

		@Override
		public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
				String[] exceptions) {
			return new MethodVisitor(SpringAsmInfo.ASM_VERSION) {
				@Override
				public void visitMethodInsn(int opcode, String owner, String method, String methodDescriptor,
						boolean isInterface) {
					if (OWNER.equals(owner) && "argument".equals(method) && DESCRIPTOR.equals(methodDescriptor)) {
						Finder.this.found = true;
					}
				}
			};
		}

	}

}
