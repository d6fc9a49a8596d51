package io.github.lockable.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.asm.Handle;
import org.springframework.asm.Label;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.asm.SpringAsmInfo;
import org.springframework.asm.Type;

/**
 * Follows where {@code this} (local variable 0) is on the operand stack, one entry per
 * stack slot, and reports every method call whose receiver is {@code this}.
 */
abstract class ThisCallTracker extends MethodVisitor {

	private List<Boolean> stack = new ArrayList<>();

	private final Map<Label, List<Boolean>> atLabel = new HashMap<>();

	private final Set<Label> handlers = new HashSet<>();

	private boolean reachable = true;

	private boolean slotZeroIsThis = true;

	ThisCallTracker() {
		super(SpringAsmInfo.ASM_VERSION);
	}

	abstract void calledOnThis(int opcode, String owner, String name, String descriptor);

	@Override
	public void visitTryCatchBlock(Label start, Label end, Label handler, @Nullable String type) {
		this.handlers.add(handler);
	}

	@Override
	public void visitLabel(Label label) {
		List<Boolean> recorded = this.atLabel.get(label);
		if (!this.reachable) {
			this.stack = (recorded != null) ? new ArrayList<>(recorded) : new ArrayList<>();
			if (this.handlers.contains(label)) {
				this.stack = new ArrayList<>(List.of(false));
			}
			this.reachable = true;
		}
	}

	@Override
	public void visitVarInsn(int opcode, int varIndex) {
		switch (opcode) {
			case Opcodes.ALOAD -> push(varIndex == 0 && this.slotZeroIsThis);
			case Opcodes.ILOAD, Opcodes.FLOAD -> push(false);
			case Opcodes.LLOAD, Opcodes.DLOAD -> pushOthers(2);
			case Opcodes.ISTORE, Opcodes.FSTORE, Opcodes.ASTORE -> store(varIndex, 1);
			case Opcodes.LSTORE, Opcodes.DSTORE -> store(varIndex, 2);
			default -> {
			}
		}
	}

	private void store(int varIndex, int size) {
		pop(size);
		if (varIndex == 0) {
			this.slotZeroIsThis = false;
		}
	}

	@Override
	public void visitInsn(int opcode) {
		switch (opcode) {
			case Opcodes.DUP -> {
				boolean top = pop();
				push(top);
				push(top);
			}
			case Opcodes.DUP_X1 -> shuffle(2, 0, 1, 0);
			case Opcodes.DUP_X2 -> shuffle(3, 0, 2, 1, 0);
			case Opcodes.DUP2 -> shuffle(2, 1, 0, 1, 0);
			case Opcodes.DUP2_X1 -> shuffle(3, 1, 0, 2, 1, 0);
			case Opcodes.DUP2_X2 -> shuffle(4, 1, 0, 3, 2, 1, 0);
			case Opcodes.SWAP -> shuffle(2, 0, 1);
			case Opcodes.IRETURN, Opcodes.LRETURN, Opcodes.FRETURN, Opcodes.DRETURN, Opcodes.ARETURN,
					Opcodes.RETURN, Opcodes.ATHROW -> this.reachable = false;
			default -> {
				int effect = effect(opcode);
				pop(effect / 10);
				pushOthers(effect % 10);
			}
		}
	}

	/**
	 * Pops {@code count} slots, then pushes them again in the given order: each index
	 * names a popped slot, 0 the one that was on top; the last index ends on top.
	 */
	private void shuffle(int count, int... order) {
		boolean[] popped = new boolean[count];
		for (int i = 0; i < count; i++) {
			popped[i] = pop();
		}
		for (int index : order) {
			push(popped[index]);
		}
	}

	@Override
	public void visitIntInsn(int opcode, int operand) {
		if (opcode == Opcodes.NEWARRAY) {
			pop(1);
		}
		push(false);
	}

	@Override
	public void visitTypeInsn(int opcode, String type) {
		if (opcode == Opcodes.CHECKCAST) {
			return;
		}
		if (opcode != Opcodes.NEW) {
			pop(1);
		}
		push(false);
	}

	@Override
	public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
		int size = Type.getType(descriptor).getSize();
		switch (opcode) {
			case Opcodes.GETSTATIC -> pushOthers(size);
			case Opcodes.PUTSTATIC -> pop(size);
			case Opcodes.GETFIELD -> {
				pop(1);
				pushOthers(size);
			}
			default -> pop(size + 1);
		}
	}

	@Override
	public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
		int sizes = Type.getArgumentsAndReturnSizes(descriptor);
		pop((sizes >> 2) - 1);
		if (opcode != Opcodes.INVOKESTATIC && pop()) {
			calledOnThis(opcode, owner, name, descriptor);
		}
		pushOthers(sizes & 3);
	}

	@Override
	public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrapMethodHandle,
			Object... bootstrapMethodArguments) {
		int sizes = Type.getArgumentsAndReturnSizes(descriptor);
		int argumentSlots = (sizes >> 2) - 1;
		boolean capturesThisFirst = argumentSlots > 0 && this.stack.size() >= argumentSlots
				&& this.stack.get(this.stack.size() - argumentSlots);
		pop(argumentSlots);
		// A bound method reference, this::locked: the lambda calls the method on the captured this.
		if (capturesThisFirst && bootstrapMethodArguments.length > 1
				&& bootstrapMethodArguments[1] instanceof Handle target && target.getTag() != Opcodes.H_INVOKESTATIC
				&& target.getTag() != Opcodes.H_NEWINVOKESPECIAL) {
			calledOnThis(Opcodes.INVOKEVIRTUAL, target.getOwner(), target.getName(), target.getDesc());
		}
		pushOthers(sizes & 3);
	}

	@Override
	public void visitJumpInsn(int opcode, Label label) {
		switch (opcode) {
			case Opcodes.IFEQ, Opcodes.IFNE, Opcodes.IFLT, Opcodes.IFGE, Opcodes.IFGT, Opcodes.IFLE,
					Opcodes.IFNULL, Opcodes.IFNONNULL -> pop(1);
			case Opcodes.JSR -> push(false);
			case Opcodes.GOTO -> {
			}
			default -> pop(2);
		}
		this.atLabel.putIfAbsent(label, new ArrayList<>(this.stack));
		if (opcode == Opcodes.GOTO) {
			this.reachable = false;
		}
	}

	@Override
	public void visitLdcInsn(Object value) {
		pushOthers((value instanceof Long || value instanceof Double) ? 2 : 1);
	}

	@Override
	public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
		switchTo(dflt, labels);
	}

	@Override
	public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
		switchTo(dflt, labels);
	}

	private void switchTo(Label dflt, Label[] labels) {
		pop(1);
		this.atLabel.putIfAbsent(dflt, new ArrayList<>(this.stack));
		for (Label label : labels) {
			this.atLabel.putIfAbsent(label, new ArrayList<>(this.stack));
		}
		this.reachable = false;
	}

	@Override
	public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
		pop(numDimensions);
		push(false);
	}

	private void push(boolean isThis) {
		this.stack.add(isThis);
	}

	private void pushOthers(int slots) {
		for (int i = 0; i < slots; i++) {
			push(false);
		}
	}

	private boolean pop() {
		return !this.stack.isEmpty() && this.stack.remove(this.stack.size() - 1);
	}

	private void pop(int slots) {
		for (int i = 0; i < slots; i++) {
			pop();
		}
	}

	/**
	 * What an instruction without operands does to the stack, in slots:
	 * {@code popped * 10 + pushed}.
	 */
	private static int effect(int opcode) {
		return switch (opcode) {
			case Opcodes.ACONST_NULL, Opcodes.ICONST_M1, Opcodes.ICONST_0, Opcodes.ICONST_1, Opcodes.ICONST_2,
					Opcodes.ICONST_3, Opcodes.ICONST_4, Opcodes.ICONST_5, Opcodes.FCONST_0, Opcodes.FCONST_1,
					Opcodes.FCONST_2 -> 1;
			case Opcodes.LCONST_0, Opcodes.LCONST_1, Opcodes.DCONST_0, Opcodes.DCONST_1 -> 2;
			case Opcodes.IALOAD, Opcodes.FALOAD, Opcodes.AALOAD, Opcodes.BALOAD, Opcodes.CALOAD, Opcodes.SALOAD,
					Opcodes.IADD, Opcodes.FADD, Opcodes.ISUB, Opcodes.FSUB, Opcodes.IMUL, Opcodes.FMUL, Opcodes.IDIV,
					Opcodes.FDIV, Opcodes.IREM, Opcodes.FREM, Opcodes.ISHL, Opcodes.ISHR, Opcodes.IUSHR, Opcodes.IAND,
					Opcodes.IOR, Opcodes.IXOR, Opcodes.L2I, Opcodes.L2F, Opcodes.D2I, Opcodes.D2F, Opcodes.FCMPL,
					Opcodes.FCMPG -> 21;
			case Opcodes.LALOAD, Opcodes.DALOAD, Opcodes.L2D, Opcodes.D2L, Opcodes.LNEG, Opcodes.DNEG -> 22;
			case Opcodes.IASTORE, Opcodes.FASTORE, Opcodes.AASTORE, Opcodes.BASTORE, Opcodes.CASTORE,
					Opcodes.SASTORE -> 30;
			case Opcodes.LSHL, Opcodes.LSHR, Opcodes.LUSHR -> 32;
			case Opcodes.LASTORE, Opcodes.DASTORE -> 40;
			case Opcodes.LCMP, Opcodes.DCMPL, Opcodes.DCMPG -> 41;
			case Opcodes.LADD, Opcodes.DADD, Opcodes.LSUB, Opcodes.DSUB, Opcodes.LMUL, Opcodes.DMUL, Opcodes.LDIV,
					Opcodes.DDIV, Opcodes.LREM, Opcodes.DREM, Opcodes.LAND, Opcodes.LOR, Opcodes.LXOR -> 42;
			case Opcodes.POP, Opcodes.MONITORENTER, Opcodes.MONITOREXIT -> 10;
			case Opcodes.POP2 -> 20;
			case Opcodes.INEG, Opcodes.FNEG, Opcodes.I2F, Opcodes.F2I, Opcodes.I2B, Opcodes.I2C, Opcodes.I2S,
					Opcodes.ARRAYLENGTH -> 11;
			case Opcodes.I2L, Opcodes.I2D, Opcodes.F2L, Opcodes.F2D -> 12;
			default -> 0;
		};
	}

}
