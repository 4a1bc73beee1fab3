-- The ppc module: decode, print and assemble PowerPC 440 words.

function TestDecodeNamesTheBaseOp(t)
  local d = ppc.decode(0x3860ffff)
  t:eq(d.op, "addi")
  t:eq(d.class, "int")
  t:eq(d.text, "li      r3,-1")
  t:eq(d.fields.RT, 3)
  t:eq(d.fields.SI, -1)
  t:eq(d.word, 0x3860ffff)
end

function TestBranchTextUsesPC(t)
  t:eq(ppc.disasm(0x4200ffb8, 0x10003948), "bdnz+   10003900")
  t:eq(ppc.decode(0x4200ffb8, 0x10003948).op, "bc")
end

function TestFourFortyOwnInstructions(t)
  t:eq(ppc.disasm(0x7d4a409d), "dlmzb.  r10,r10,r8")
  t:eq(ppc.decode(0x10a43150).op, "mulchw")
  t:eq(ppc.disasm(0x7c0004ac), "msync")
end

function TestUnknownWordsPrintAsLong(t)
  t:eq(ppc.disasm(0x7c6029ce), ".long 0x7c6029ce")
  t:error(function() ppc.decode(0x7c6029ce) end, "0x7c6029ce: not a PowerPC 440 instruction")
end

function TestEncodeRoundTrips(t)
  for _, w in ipairs({ 0x9421fff0, 0x7c0802a6, 0x4bfffe9d, 0x41820038, 0x7c6f1120, 0xfc00048e }) do
    t:eq(ppc.encode(ppc.disasm(w, 0x10000000), 0x10000000), w, ppc.disasm(w, 0x10000000))
  end
  t:eq(ppc.encode("bl 10000400", 0x10000000), 0x48000401)
end

function TestEncodeErrorsNameTheText(t)
  t:error(function() ppc.encode("frobnicate r1") end, 'unknown mnemonic "frobnicate"')
  t:error(function() ppc.encode("addi r3,r1,70000") end, '"addi r3,r1,70000": operands do not fit addi')
  t:error(function() ppc.disasm(1.5) end, "32%-bit word expected")
end
