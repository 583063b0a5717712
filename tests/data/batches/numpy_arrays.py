# estimate kind: numpy arrays of literal shape and dtype (default_collate keeps the dtype)
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Clips(Dataset):
    def __len__(self):
        return 100

    def __getitem__(self, i):
        frames = np.zeros((16, 3, 112, 112), dtype=np.float16)
        audio = np.random.randn(2, 16000)  # float64: a fixed-length audio crop
        mask = torch.from_numpy(np.ones((112, 112), dtype=np.uint8)).bool()
        return {"frames": frames, "audio": audio, "mask": mask, "index": i, "flag": True}


def make():
    return DataLoader(Clips(), batch_size=8, num_workers=2)
