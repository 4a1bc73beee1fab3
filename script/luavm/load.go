package luavm

import (
	"fmt"
	"os"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// checkedLoaders replace the base library's code loaders of a full state so that the
// chunks they compile get the size-checked concatenation of concat.go, as the host's own
// chunks do. Messages are gopher-lua's.
var checkedLoaders = map[string]lua.LGFunction{
	"loadstring": checkedLoadString,
	"load":       checkedLoad,
	"loadfile":   checkedLoadFile,
	"dofile":     checkedDoFile,
}

// InstallCheckedLoaders replaces loadstring, load, loadfile and dofile in L's globals,
// and require's searcher of Lua files (package.loaders[2]).
func InstallCheckedLoaders(L *lua.LState) {
	for name, fn := range checkedLoaders {
		if L.GetGlobal(name) != lua.LNil {
			L.SetGlobal(name, L.NewFunction(fn))
		}
	}
	if loaders, ok := L.G.Registry.RawGetString("_LOADERS").(*lua.LTable); ok && loaders.Len() >= 2 {
		loaders.RawSetInt(2, L.NewFunction(checkedLuaSearcher))
	}
}

// checkedLuaSearcher is require's searcher of Lua files along package.path, as gopher-lua's
// but compiling through Compile: the module's chunk, or the places it looked.
func checkedLuaSearcher(L *lua.LState) int {
	name := strings.ReplaceAll(L.CheckString(1), ".", string(os.PathSeparator))
	pkg, _ := L.GetGlobal("package").(*lua.LTable)
	var path lua.LValue = lua.LNil
	if pkg != nil {
		path = pkg.RawGetString("path")
	}
	patterns, ok := path.(lua.LString)
	if !ok {
		L.RaiseError("package.path must be a string")
	}
	var tried []string
	for _, pattern := range strings.Split(string(patterns), ";") {
		file := strings.ReplaceAll(pattern, "?", name)
		if _, err := os.Stat(file); err != nil {
			tried = append(tried, err.Error())
			continue
		}
		fn, err := loadFile(L, file)
		if err != nil {
			L.RaiseError("%s", err.Error())
		}
		L.Push(fn)
		return 1
	}
	L.Push(lua.LString(strings.Join(tried, "\n\t")))
	return 1
}

// loadChecked compiles src as chunk name into a function of the caller's environment.
func loadChecked(L *lua.LState, src, name string) (*lua.LFunction, error) {
	proto, err := Compile(strings.NewReader(src), name)
	if err != nil {
		return nil, err
	}
	fn := L.NewFunctionFromProto(proto)
	if env, ok := L.Get(lua.EnvironIndex).(*lua.LTable); ok {
		fn.Env = env
	}
	return fn, nil
}

// pushLoaded pushes fn, or nil and the error, as the load functions return them.
func pushLoaded(L *lua.LState, fn *lua.LFunction, err error) int {
	if err != nil {
		L.Push(lua.LNil)
		L.Push(lua.LString(err.Error()))
		return 2
	}
	L.Push(fn)
	return 1
}

func checkedLoadString(L *lua.LState) int {
	fn, err := loadChecked(L, L.CheckString(1), L.OptString(2, "<string>"))
	return pushLoaded(L, fn, err)
}

func checkedLoad(L *lua.LState) int {
	reader := L.CheckFunction(1)
	name := L.OptString(2, "?")
	var b strings.Builder
	for {
		L.Push(reader)
		L.Call(0, 1)
		piece := L.Get(-1)
		L.Pop(1)
		if piece == lua.LNil {
			break
		}
		if !lua.LVCanConvToString(piece) {
			L.Push(lua.LNil)
			L.Push(lua.LString("reader function must return a string"))
			return 2
		}
		s := lua.LVAsString(piece)
		if s == "" {
			break
		}
		if int64(b.Len()+len(s)) > MaxString {
			L.RaiseError("load: the chunk is larger than %s", ByteSize(float64(MaxString)))
		}
		b.WriteString(s)
	}
	fn, err := loadChecked(L, b.String(), name)
	return pushLoaded(L, fn, err)
}

// loadFile compiles the file at path; a first line starting with "#" is skipped.
func loadFile(L *lua.LState, path string) (*lua.LFunction, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := string(src)
	if strings.HasPrefix(s, "#") {
		s = "--" + s
	}
	return loadChecked(L, s, path)
}

func checkedLoadFile(L *lua.LState) int {
	path := L.CheckString(1)
	fn, err := loadFile(L, path)
	if os.IsNotExist(err) || os.IsPermission(err) {
		err = fmt.Errorf("can not open file: %v", path)
	}
	return pushLoaded(L, fn, err)
}

func checkedDoFile(L *lua.LState) int {
	top := L.GetTop()
	fn, err := loadFile(L, L.CheckString(1))
	if err != nil {
		L.Error(lua.LString(err.Error()), 0)
	}
	L.Push(fn)
	L.Call(0, lua.MultRet)
	return L.GetTop() - top
}
