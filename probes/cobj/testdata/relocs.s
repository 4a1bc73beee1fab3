# relocs: the relocation forms gcc does not emit for C modules, each once.
	.section .sdata,"aw"
	.p2align 2
small:	.long 5

	.data
	.p2align 2
	.globl table
table:	.long 0x11223344

	.text
	.p2align 2
	.globl branches
branches:
	lwz 3, small@sda21(0)	# R_PPC_EMB_SDA21
	lis 4, table@h		# R_PPC_ADDR16_HI
	ori 4, 4, table@l	# R_PPC_ADDR16_LO
	cmpwi 3, 0
	beq target		# R_PPC_REL14 (a global: the assembler leaves it to the loader)
	blr
	.globl target
target:
	li 3, 1
	blr
