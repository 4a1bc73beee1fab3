package ppc_test

import (
	"fmt"
	"os"

	"github.com/dpclsh/dpclsh/ppc"
)

// Load a static PPC440 executable, make a process and run it, serving its write and exit
// system calls.
func ExampleImage_NewProcess() {
	f, err := os.Open("testdata/exec/hello.elf")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	img, err := ppc.LoadELF(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	cpu, err := img.NewProcess(ppc.ProcessConfig{Args: []string{"hello", "world"}, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for {
		st := cpu.Run(1_000_000)
		if st.Kind != ppc.StopSyscall {
			fmt.Println("stopped:", st.Kind, st.Fault)
			return
		}
		switch cpu.GPR[0] { // the system call number
		case 4: // write(fd, buf, n)
			buf := make([]byte, cpu.GPR[5])
			cpu.Mem.Read(cpu.GPR[4], buf)
			fmt.Print(string(buf))
			cpu.GPR[3] = cpu.GPR[5]
		case 1: // exit(status)
			fmt.Printf("exit %d after %d instructions\n", cpu.GPR[3], cpu.Count.Instructions)
			return
		}
	}
	// Output:
	// hello, 440
	// 0 hello
	// 1 world
	// exit 3 after 244 instructions
}
